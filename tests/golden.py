"""Golden files: compare text with tests/fixtures/<name>; VCFG_UPDATE_GOLDEN=1 rewrites
them (review the diff before committing)."""

import os
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


def check_golden(name: str, text: str) -> None:
    path = FIXTURES / name
    if os.environ.get("VCFG_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"missing golden file {path}; run with VCFG_UPDATE_GOLDEN=1"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{name} differs from its golden file (VCFG_UPDATE_GOLDEN=1 to update)"
