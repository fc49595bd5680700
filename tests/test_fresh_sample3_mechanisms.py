"""The reading mechanisms the third fresh sample of real deployment files showed wrong
(session 9, tests/corpus/real/ annotations.toml), each on a small file of the same shape."""

from __future__ import annotations

from vcfg.launch.read import read_plan
from vcfg.lint.engine import lint_paths


def _lint(path, version: str = "0.33.0") -> list[tuple[str, int, int]]:  # type: ignore[no-untyped-def]
    res = lint_paths([str(path)], version)
    return [(d.code, d.span.line, d.span.col) for d in res.diagnostics if d.severity in ("error", "warning")]


OTHER_PROGRAMS_OPTION = """\
Give the server arguments to the evaluation:

```bash
--server_args="--enable-auto-tool-choice --tool-call-parser hermes"
```

Or append these to vllm serve:

```bash
--enable-auto-tool-choice --tool-call-parser hermes --max-num-seqz 8
```
"""


def test_options_inside_another_options_quoted_value_are_not_a_launch(tmp_path):
    """NVIDIA/NeMo-Skills docs/evaluation/tool-calling.md: ``--server_args="..."`` is one
    shell word, an option of ``ns eval`` whose value holds vLLM options; the block is
    no vllm serve argument list (it was, with VC001 on ``--server-args``).  A block of
    vLLM's own options still is one (its typo is VC001)."""
    f = tmp_path / "tool-calling.md"
    f.write_text(OTHER_PROGRAMS_OPTION)
    plan = read_plan(str(f), f.read_bytes())
    assert [i.span.line for i in plan.invocations] == [10]
    assert [c for c, _, _ in _lint(f)] == ["VC001"]
    assert _lint(f)[0][1] == 10


SPAN_LINES = """\
## Steps
1.  ```lmcache_server localhost 65432```
2. In one terminal,
```CUDA_VISIBLE_DEVICES=0 python3 -m vllm.entrypoints.openai.api_server --model m --port 8000```
In another terminal,
```CUDA_VISIBLE_DEVICES=1 vllm serve m --port 8001 --max-num-seqz 4```
Ask with `vllm serve m --bad-flag` mentioned in prose.

```bash
vllm serve m --port 8002
```
"""


def test_a_line_that_is_only_a_triple_backtick_code_span_is_a_command(tmp_path):
    """LMCache/LMCache examples/share_across_instances/README.md: ```cmd``` on a line of
    its own is an inline code span (a backtick fence's info string holds no backtick,
    CommonMark), not a fence: it opened a block that swallowed the rest of the file, so
    no launch was read.  Now each such line is a one-line command at its own position;
    a code span inside prose is not, and the fenced block after them is read as before."""
    f = tmp_path / "README.md"
    f.write_text(SPAN_LINES)
    plan = read_plan(str(f), f.read_bytes())
    assert [(i.span.line, i.span.col) for i in plan.invocations] == [(4, 4), (6, 4), (10, 1)]
    assert _lint(f) == [("VC001", 6, 52)]


TUTORIAL = """\
# Basic vLLM configuration

Write this values file:

```yaml
servingEngineSpec:
  runtimeClassName: ""
  modelSpec:
  - name: "llama3"
    repository: "vllm/vllm-openai"
    tag: "latest"
    modelURL: "meta-llama/Llama-3.1-8B-Instruct"
    replicaCount: 1
    requestGPU: 1
    vllmConfig:
      maxModelLen: 4096
      extraArgs: ["--max-num-seqz", "8"]
```

and install it with `helm install vllm vllm/vllm-stack -f values.yaml`. A Service:

```yaml
apiVersion: v1
kind: Service
metadata:
  name: router
```
"""


def test_a_markdown_yaml_block_of_production_stack_values_is_the_launch_its_chart_renders(tmp_path):
    """vllm-project/production-stack tutorials/02-basic-vllm-config.md and the other
    tutorials: the values file is a ```yaml block, read as the helm-values reader reads a
    values file (the launch at the model's list item, positions in the .md); a block of
    other YAML is no launch."""
    f = tmp_path / "02-basic-vllm-config.md"
    f.write_text(TUTORIAL)
    plan = read_plan(str(f), f.read_bytes())
    assert [(i.span.line, i.kind) for i in plan.invocations] == [(9, "serve")]
    assert _lint(f) == [("VC001", 17, 20)]
