"""dstack configurations: ``commands:`` run as a script with ``env:`` in ``image:``,
in a ``.dstack.yml`` file and in a Markdown ```yaml block (vllm docs/deployment/
frameworks/dstack.md shape)."""

from __future__ import annotations

from vcfg.launch.read import read_plan
from vcfg.lint.engine import lint_paths

SERVICE = """\
type: service
image: vllm/vllm-openai:v0.10.0
env:
  - MODEL=Qwen/Qwen2.5-7B-Instruct
  - HF_TOKEN
port: 8000
commands:
  - pip list
  - vllm serve $MODEL --port 8000 --max-modle-len 4096
"""


def _lint(path) -> list[tuple[str, int, int]]:  # type: ignore[no-untyped-def]
    res = lint_paths([str(path)], "0.33.0")
    return [(d.code, d.span.line, d.span.col) for d in res.diagnostics if d.severity in ("error", "warning")]


def test_a_dstack_service_runs_its_commands_with_its_env_in_its_image(tmp_path):
    p = tmp_path / "serve.dstack.yml"
    p.write_text(SERVICE)
    plan = read_plan(str(p), p.read_bytes())
    assert plan.source_kind == "dstack"
    (inv,) = plan.invocations
    assert inv.span.line == 9
    assert inv.image is not None and inv.image.value == "vllm/vllm-openai:v0.10.0"
    assert inv.env["MODEL"].value.text == "Qwen/Qwen2.5-7B-Instruct"
    assert inv.env["HF_TOKEN"].value.text is None
    assert [w.text for w in inv.args][:1] == ["Qwen/Qwen2.5-7B-Instruct"]
    assert _lint(p) == [("VC001", 9, 35)]


def test_a_dstack_env_mapping_and_a_task(tmp_path):
    p = tmp_path / "task.dstack.yml"
    p.write_text("type: task\nenv:\n  MODEL: m/m\ncommands:\n  - vllm serve $MODEL --max-num-seqz 8\n")
    assert _lint(p) == [("VC001", 5, 23)]


MD = """\
# dstack

```yaml
kind: Deployment
commands:
  - vllm serve m --max-num-seqz 8
```

Create `serve.dstack.yml`:

```yaml
type: service
env:
    - MODEL=NousResearch/Llama-2-7b-chat-hf
commands:
    - pip install vllm
    - vllm serve $MODEL --port 8000 --max-num-seqz 8
```
"""


def test_a_dstack_configuration_in_a_markdown_yaml_block(tmp_path):
    """Only the block with a dstack ``type:`` is read; positions are the .md file's."""
    p = tmp_path / "dstack.md"
    p.write_text(MD)
    (inv,) = read_plan(str(p), p.read_bytes()).invocations
    assert inv.span.line == 17
    assert _lint(p) == [("VC001", 17, 37)]


def test_yaml_without_a_dstack_type_is_not_claimed(tmp_path):
    p = tmp_path / "other.yml"
    p.write_text("type: library\ncommands:\n  - vllm serve m --max-num-seqz 8\n")
    assert read_plan(str(p), p.read_bytes()).source_kind != "dstack"
    q = tmp_path / "noc.yml"
    q.write_text("type: service\nsteps:\n  - vllm serve m --max-num-seqz 8\n")
    assert read_plan(str(q), q.read_bytes()).source_kind != "dstack"
