"""The reading mechanisms the second fresh sample of real deployment files showed wrong
(session 6, tests/corpus/real/ annotations.toml), each on a small file of the same shape."""

from __future__ import annotations

from vcfg.launch.read import read_plan
from vcfg.lint.engine import lint_paths


def _lint(path, version: str = "0.33.0") -> list[tuple[str, int, int]]:  # type: ignore[no-untyped-def]
    res = lint_paths([str(path)], version)
    return [(d.code, d.span.line, d.span.col) for d in res.diagnostics if d.severity in ("error", "warning")]


ALTERNATIVES = """\
# Serving

On H100:

```bash
vllm serve m --max-num-seqs 8 &
```

On DGX Spark:

```bash
vllm serve m --max-num-seqs 8 --port 8000
```

Both on one machine:

```bash
vllm serve a &
vllm serve b
```
"""


def test_launches_of_two_markdown_blocks_never_run_at_once(tmp_path):
    """vllm-project/recipes NVIDIA/Nemotron-3-Nano-30B-A3B.md: an H100 block starts its
    server in the background; the DGX Spark block is another machine, not a second server
    beside it (no port or GPU clash).  Two launches in one block still clash."""
    f = tmp_path / "recipe.md"
    f.write_text(ALTERNATIVES)
    assert _lint(f) == [("VC302", 19, 6), ("VC306", 19, 6)]


OPTIONS = """\
Append to the command:

```bash
--hf-overrides '{"num_nextn_predict_layers": 1}' \\
--speculative-config '{"method": "mtp", "num_speculative_tokens": 1}' \\
--max-num-seqz 8
```
"""


def test_an_options_block_with_continuation_backslashes_is_one_argument_list(tmp_path):
    """vllm-project/recipes StepFun/Step-3.5-Flash.md: the block's lines end with ``\\``;
    each one continues the list (the backslash did escape the blank that joins the lines,
    giving `' --speculative-config'` and a stray JSON word).  A typo keeps its position."""
    f = tmp_path / "mtp.md"
    f.write_text(OPTIONS)
    (inv,) = read_plan(str(f), f.read_bytes()).invocations
    texts = [w.text for w in inv.args][1:]  # after the model, which the block does not give
    assert texts[:2] == ["--hf-overrides", '{"num_nextn_predict_layers": 1}']
    assert texts[2:4] == ["--speculative-config", '{"method": "mtp", "num_speculative_tokens": 1}']
    assert _lint(f) == [("VC001", 6, 1)]


PLACEHOLDER = """\
```bash
vllm serve <path_to_your_model>/Qwen2.5-72B-Instruct/ \\
--served-model-name qwen \\
--port 8002
```

```bash
vllm serve --served-model-name qwen --port 8003
```
"""


def test_a_model_a_placeholder_took_is_not_reported_missing_again(tmp_path):
    """vllm-ascend pd_colocated_mooncake_multi_instance.md: the placeholder's redirections
    take the model word; VC000 names the placeholder, and VC010 does not report the model
    it swallowed as missing.  A launch without a model still gets VC010."""
    f = tmp_path / "guide.md"
    f.write_text(PLACEHOLDER)
    assert _lint(f) == [("VC000", 2, 12), ("VC010", 8, 12)]
