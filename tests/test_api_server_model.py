"""``python -m vllm.entrypoints.openai.api_server --model M`` on vLLM 0.9.0: the module
builds vLLM's engine options with no ``serve`` in ``sys.argv``, which registers
``--model`` (engine/arg_utils.py:451-452 @0.9.0); ``vllm serve`` has no ``--model``
there.  The table vcfg/catalog/data/outside-serve-flags.json holds it; checked here
against the release's source when the cache has it."""

from __future__ import annotations

import pytest
from release_sample import cached

from vcfg.launch.args.entry import outside_serve_flags
from vcfg.lint.engine import lint_paths


def findings(tmp_path, text, version):
    p = tmp_path / "run.sh"
    p.write_text(text)
    res = lint_paths([str(p)], version)
    assert not res.internal_errors, res.internal_errors
    return [(d.code, d.span.line, d.span.col) for d in res.diagnostics]


@pytest.mark.parametrize("version", ["0.9.0", "0.9.0.1", "0.9.1", "0.8.5.post1"])
def test_the_api_server_module_takes_model(tmp_path, version):
    src = "python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-0.6B --port 8000 --max-num-seqz 4\n"
    # the typo is still found: the module's other options are the release's
    assert findings(tmp_path, src, version) == [("VC001", 1, src.index("--max-num-seqz") + 1)]


def test_vllm_serve_of_0_9_0_still_has_no_model_option(tmp_path):
    got = [c for c, *_ in findings(tmp_path, "vllm serve Qwen/Qwen3-0.6B --model Qwen/Qwen3-0.6B\n", "0.9.0")]
    # vLLM's FlexibleArgumentParser refuses `--model` under serve before argparse reads
    # it (vllm/utils.py:1399-1407 @0.9.0): one finding, VC010; not also argparse's
    # ambiguity (--model-impl, ...) that never runs, nor "removed in 0.9.0"
    assert got == ["VC010"]


@pytest.mark.slow  # two replays of the release's parser: about 10 s
@pytest.mark.skipif(not cached("0.9.0"), reason="vllm 0.9.0 is not in the source cache")
def test_the_table_is_what_the_0_9_0_source_says():
    from vcfg.catalog.extract.configs import extract_configs
    from vcfg.catalog.extract.outside_serve import outside_serve_flags as replay
    from vcfg.catalog.extract.source import from_version

    src = from_version("0.9.0")
    assert tuple(replay(src, extract_configs(src))) == outside_serve_flags("0.9.0")


def test_a_positional_without_a_source_position_names_no_declaration_site(tmp_path):
    """VC010's help cites where the release declares the model argument; a catalog whose
    positional has no file:line (a hand-made or plugin catalog) gives the help without
    it instead of failing."""
    from tests.launch_context import launch_context
    from vcfg.lint.rules import vc010_model_option as vc010
    from vcfg.records import replace

    lc = launch_context(tmp_path, "vllm serve m\n")
    assert vc010._positional(lc).startswith(" (vllm 0.33.0 declares it as ")
    flags = tuple(replace(f, loc=None) if f.positional else f for f in lc.catalog.flags)
    lc.own_target = replace(lc.target, catalog=replace(lc.catalog, flags=flags))
    lc.memo.clear()
    assert any(f.positional for f in lc.catalog.flags)
    assert vc010._positional(lc) == ""
