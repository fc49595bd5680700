"""The vLLM facts that used to be constants in code, now knowledge-pack entries with
sources: parser behaviours (`[[behaviour]]`) and the names vLLM's checks read
(`[[setting]]`)."""

import re
from pathlib import Path

import pytest

from vcfg.catalog.knowledge import behaviour_since, load_packs, source_form
from vcfg.launch.args import since

ROOT = Path(__file__).resolve().parents[1]


def _names_asked() -> set[str]:
    out = set()
    for p in (ROOT / "vcfg").rglob("*.py"):
        out.update(re.findall(r'\bsince\("([\w-]+)"\)', p.read_text(encoding="utf-8")))
    return out


def test_every_behaviour_the_code_asks_for_is_in_the_pack():
    asked = _names_asked()
    assert len(asked) >= 10
    kb = load_packs()
    named = {b.name for p in kb.packs for b in p.content.behaviour}
    assert asked <= named, asked - named
    # and each one has a vLLM citation of the release it starts in
    for p in kb.packs:
        for b in p.content.behaviour:
            assert all(source_form(s) for s in b.sources), b.name
            assert any(s.startswith(f"vllm@{b.since}:") for s in b.sources), b.name


def test_since_reads_the_pack():
    assert since("json-human-readable-numbers") == (0, 20, 0)
    assert behaviour_since("yaml-false-as-no-flag") == "0.28.0"
    with pytest.raises(KeyError):
        since("no-such-behaviour")


def test_settings_hold_for_their_versions_and_user_packs_override(tmp_path):
    kb = load_packs()
    assert kb.setting("expandable-segments.variable", "0.33.0").value == "PYTORCH_CUDA_ALLOC_CONF"
    assert kb.setting("expandable-segments.variable", "0.20.2") is None  # vLLM checks from 0.21
    assert kb.setting("expandable-segments.exempt-options", "0.21.0").values == [
        "enable_cumem_allocator",
        "enable_sleep_mode",
    ]
    (tmp_path / "mine.toml").write_text(
        '[[setting]]\nname = "long-max-model-len.override"\nvalue = "MY_ALLOW"\nversions = ">=0.30"\n'
        'sources = ["https://example.org/allow"]\n'
    )
    mine = load_packs([tmp_path])
    assert mine.setting("long-max-model-len.override", "0.33.0").value == "MY_ALLOW"
    assert mine.setting("long-max-model-len.override", "0.29.0").value == "VLLM_ALLOW_LONG_MAX_MODEL_LEN"


def test_rule_pages_name_what_the_checks_read():
    from vcfg.lint.rules import vc108_expandable_segments_with_connector as vc108
    from vcfg.lint.rules import vc205_max_model_len_above_limit as vc205

    kb = load_packs()
    assert vc205.ALLOW == kb.setting("long-max-model-len.override", "0.33.0").value
    for name in ("variable", "text"):
        assert kb.setting(f"expandable-segments.{name}", "0.33.0").value in vc108.RULE.summary


def _lint(tmp_path, text, version, files=()):
    from vcfg.lint.engine import lint_paths

    for rel, content in files:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(content)
    (tmp_path / "run.sh").write_text(text)
    res = lint_paths([str(tmp_path / "run.sh")], version)
    return [(d.code, d.span.line, d.span.col, d.message, d.help) for d in res.diagnostics]


def test_vc108_reads_its_setting_from_the_pack(tmp_path):
    text = (
        "export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n"
        'vllm serve m --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_both"}\'\n'
    )
    got = [d for d in _lint(tmp_path, text, "0.33.0") if d[0] == "VC108"]
    assert [(c, line, col) for c, line, col, *_ in got] == [("VC108", 1, 32)]
    assert (
        got[0][4] == "drop `expandable_segments:True` for this launch, or pass `--enable-cumem-allocator`"
        " or `--enable-sleep-mode`"
    )
    assert not [
        d
        for d in _lint(tmp_path, text.replace("m --kv", "m --enable-cumem-allocator --kv"), "0.33.0")
        if d[0] == "VC108"
    ]


def _codes(tmp_path, text, version, files=(), knowledge=None):
    from vcfg.lint.engine import lint_paths

    for rel, content in files:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(content)
    (tmp_path / "run.sh").write_text(text)
    dirs = [knowledge] if knowledge is not None else []
    res = lint_paths([str(tmp_path / "run.sh")], version, knowledge_dirs=dirs)
    return [(d.code, d.span.line, d.span.col) for d in res.diagnostics]


def test_vc101_reads_the_names_vllm_reads_outside_its_registry_from_the_pack(tmp_path):
    """VLLM_BUILD_COMMIT, registered only from 0.26.0 but baked into vLLM's images before,
    is not reported on 0.20.2 because the pack's setting names it; a user pack whose
    setting leaves it out (the last pack's setting wins) brings the finding back, and one
    that adds a name silences that name."""
    text = "export VLLM_BUILD_COMMIT=abc\nexport VLLM_ENGINE_READY_TIMEOUT=1200\nvllm serve m\n"
    assert [c for c in _codes(tmp_path, text, "0.20.2") if c[0] == "VC101"] == [("VC101", 2, 8)]
    bundled = load_packs().setting("env.read-outside-registry", "0.20.2").values
    assert "VLLM_BUILD_COMMIT" in bundled and "VLLM_SNAPSHOT_TIMEOUT_S" in bundled
    mine = tmp_path / "packs"
    mine.mkdir()

    def pack(values: list[str]) -> Path:
        (mine / "mine.toml").write_text(
            f'[[setting]]\nname = "env.read-outside-registry"\nvalues = {values!r}\n'
            'versions = ">=0.8"\nsources = ["https://example.org/our-images"]\n'
        )
        return mine

    without = [n for n in bundled if n != "VLLM_BUILD_COMMIT"]
    assert [c for c in _codes(tmp_path, text, "0.20.2", knowledge=pack(without)) if c[0] == "VC101"] == [
        ("VC101", 1, 8),
        ("VC101", 2, 8),
    ]
    added = [*bundled, "VLLM_ENGINE_READY_TIMEOUT"]
    assert [c for c in _codes(tmp_path, text, "0.20.2", knowledge=pack(added)) if c[0] == "VC101"] == []


def test_vc264_reads_the_mtp_model_types_and_its_releases_from_the_pack(tmp_path):
    """A Qwen3 checkpoint has no MTP layers: VC264 on 0.33.0 and 0.13.0, not on 0.16.0 (a
    plain draft model there); on 0.13.0 a `qwen3_next_mtp` method is read as `mtp`; a pack
    naming qwen3 an MTP model type silences it."""
    from vcfg.lint.rules._model import QWEN3_8B

    text = 'vllm serve ./qwen3-8b --speculative-config \'{"method": "mtp", "num_speculative_tokens": 1}\'\n'
    files = [QWEN3_8B]
    assert ("VC264", 1, 56) in _codes(tmp_path, text, "0.33.0", files)
    assert ("VC264", 1, 56) in _codes(tmp_path, text, "0.13.0", files)
    assert not [c for c in _codes(tmp_path, text, "0.16.0", files) if c[0] == "VC264"]
    aliased = text.replace('"mtp"', '"qwen3_next_mtp"')
    assert ("VC264", 1, 56) in _codes(tmp_path, aliased, "0.13.0", files)
    kb = load_packs()
    assert "qwen3_next" in kb.setting("mtp.model-types", "0.33.0").values
    mine = tmp_path / "packs"
    mine.mkdir()
    (mine / "mine.toml").write_text(
        '[[setting]]\nname = "mtp.model-types"\nvalues = ["qwen3"]\nversions = ">=0.13.0"\n'
        'sources = ["https://example.org/our-mtp-qwen3"]\n'
    )
    assert not [c for c in _codes(tmp_path, text, "0.33.0", files, knowledge=mine) if c[0] == "VC264"]


def test_vc262_reads_the_files_each_method_looks_for_from_the_pack(tmp_path):
    """A Qwen3 checkpoint with a `quant_config.json` beside config.json: AWQ reads its
    settings from that file, so `--quantization awq` is not reported; a user pack whose
    awq setting names only `quantize_config.json` brings the finding back, and one that
    gives `fp8` such files makes vcfg judge fp8 there too."""
    from vcfg.lint.rules._model import QWEN3_8B

    files = [QWEN3_8B, ("qwen3-8b/quant_config.json", '{"w_bit": 4, "q_group_size": 128}\n')]
    text = "#!/bin/bash\nvllm serve ./qwen3-8b \\\n  --quantization awq \\\n  --max-model-len 8192\n"
    assert not [c for c in _codes(tmp_path, text, "0.33.0", files) if c[0] == "VC262"]
    kb = load_packs()
    assert kb.setting("quantization.checkpoint-files.awq", "0.33.0").values == [
        "quant_config.json",
        "quantize_config.json",
    ]
    mine = tmp_path / "packs"
    mine.mkdir()
    (mine / "mine.toml").write_text(
        '[[setting]]\nname = "quantization.checkpoint-files.awq"\nvalues = ["quantize_config.json"]\n'
        'versions = ">=0.8"\nsources = ["https://example.org/our-awq"]\n'
    )
    assert [c for c in _codes(tmp_path, text, "0.33.0", files, knowledge=mine) if c[0] == "VC262"] == [("VC262", 3, 18)]
    fp8 = text.replace("awq", "fp8")
    assert not [c for c in _codes(tmp_path, fp8, "0.33.0", files, knowledge=mine) if c[0] == "VC262"]
    (mine / "mine.toml").write_text(
        '[[setting]]\nname = "quantization.checkpoint-files.fp8"\nvalues = ["fp8_config.json"]\n'
        'versions = ">=0.8"\nsources = ["https://example.org/our-fp8"]\n'
    )
    assert [c for c in _codes(tmp_path, fp8, "0.33.0", files, knowledge=mine) if c[0] == "VC262"] == [("VC262", 3, 18)]
