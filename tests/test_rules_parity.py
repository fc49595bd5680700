"""Engine parity (#16): launches vLLM refuses after argparse, found per release with
exact positions (the bundled 0.33.0 and 0.13.0 catalogs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vcfg.lint.config import LintConfig
from vcfg.lint.engine import lint_paths

RELEASES = ("0.33.0", "0.13.0")


def lint(tmp_path: Path, text: str, version: str) -> list[tuple[str, int, int, str]]:
    p = tmp_path / "run.sh"
    p.write_text(text, encoding="utf-8")
    r = lint_paths([str(p)], version, config=LintConfig())
    assert r.internal_errors == []
    return [(d.code, d.span.line, d.span.column, d.severity) for d in r.diagnostics]


def serve(args: str) -> str:
    return f"vllm serve Qwen/Qwen3-8B {args}\n"


def col(text: str, needle: str) -> int:
    i = text.find(needle)
    assert i >= 0, needle
    return i + 1


# --------------------------------------------------------------------------- --speculative-config


@pytest.mark.parametrize("version", RELEASES)
def test_speculative_method_not_in_the_literal(tmp_path, version):
    text = serve('--speculative-config \'{"method":"ngramm","num_speculative_tokens":3}\'')
    assert lint(tmp_path, text, version) == [("VC025", 1, col(text, '"ngramm"'), "error")]


@pytest.mark.parametrize("version", RELEASES)
def test_speculative_tokens_not_a_number(tmp_path, version):
    text = serve('--speculative-config \'{"method":"ngram","num_speculative_tokens":"three"}\'')
    assert lint(tmp_path, text, version) == [("VC024", 1, col(text, '"three"'), "error")]


@pytest.mark.parametrize("version", RELEASES)
def test_speculative_tokens_below_the_field_bound(tmp_path, version):
    text = serve('--speculative-config \'{"method":"ngram","num_speculative_tokens":-1}\'')
    assert lint(tmp_path, text, version) == [("VC006", 1, col(text, "-1}"), "error")]


@pytest.mark.parametrize(("version", "severity"), [("0.33.0", "error"), ("0.13.0", "warning")])
def test_speculative_unknown_key(tmp_path, version, severity):
    # SpeculativeConfig forbids extra keys from 0.16 (the @config decorator); 0.13.0
    # drops them silently
    text = serve('--speculative-config \'{"method":"ngram","num_speculative_token":3}\'')
    assert lint(tmp_path, text, version) == [
        ("VC022", 1, col(text, "num_speculative_token"), severity)
    ]


@pytest.mark.parametrize("version", RELEASES)
def test_valid_speculative_config_is_clean(tmp_path, version):
    text = serve(
        '--speculative-config \'{"method":"ngram","num_speculative_tokens":3,'
        '"prompt_lookup_max":4}\''
    )
    assert lint(tmp_path, text, version) == []
