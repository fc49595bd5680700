"""Lint wording, reviewed as diffs: every seeded corpus file linted at its release and
printed by the `full` renderer (messages, help, notes, the excerpt), compared with
tests/fixtures/lint/<file>.txt.  The corpus tests assert codes and positions; this one
holds the words.  VCFG_UPDATE_GOLDEN=1 rewrites the files: review the diff."""

from __future__ import annotations

from pathlib import Path

import pytest
from golden import check_golden
from test_lint_corpus import SEEDED, target_version

from vcfg.lint.config import load_config
from vcfg.lint.engine import lint_paths
from vcfg.render import full

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("path", SEEDED, ids=[p.name for p in SEEDED])
def test_lint_wording_matches_its_golden_file(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # paths in the output as a user in the checkout sees them
    shown = path.relative_to(ROOT).as_posix()
    result = lint_paths([shown], version=target_version(path), config=load_config(path.parent))
    text = full.render(result.diagnostics, result.summary, result.sources)
    check_golden(f"lint/{path.name}.txt", text if text.endswith("\n") else text + "\n")
