"""(slow) vLLM's real parser of the newer release accepts every migrated `vllm serve` argv.

For each release pair among 0.10.2 .. 0.33.0 (upward) and each corpus file written
for the older one, `vcfg upgrade` migrates the file in memory; every `vllm serve`
launch of the result whose argv vcfg knows word for word, and on which the lint for
the newer release reports no error, is handed to the real `vllm serve` parser of that
release (the oracle venv of tests/test_fidelity.py, an older release's source tree put
over it as that test does; tests/schema_oracle_parse.py does the parsing).  A launch
with an error that the upgrade names as not migrated is parsed too, and only counted.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from test_upgrade import CASES

HERE = Path(__file__).parent
ORACLE = HERE / "schema_oracle_parse.py"


def _argvs(old: str, new: str, path: Path, tmp: Path) -> list[dict[str, Any]]:
    """The migrated file's serve launches, as oracle cases."""
    from vcfg.catalog import store
    from vcfg.launch.read import read_plan
    from vcfg.launch.readers import ReadContext
    from vcfg.upgrade.migrate import upgrade

    u = upgrade([str(path)], old, new, report_defaults=False)
    after = u.run.files[0].after
    cat, _ = store.load(new)
    plan = read_plan(str(path), after, ReadContext(catalog=cat))
    errors = [d for d in u.run.result.diagnostics if d.severity == "error"]
    folder = tmp / f"{old}-{new}-{path.stem}"
    folder.mkdir(parents=True, exist_ok=True)
    migrated = folder / path.name  # a serve config is its own --config file
    migrated.write_bytes(after)
    out = []
    for n, inv in enumerate(plan.invocations):
        if inv.kind != "serve" or inv.subcommand[:1] != ("serve",) or not inv.args_complete:
            continue
        words = [w.text for w in inv.args]
        if any(w is None for w in words):
            continue
        argv: list[str] = []
        it = iter(words)
        for w in it:
            argv.append(w)
            if w == "--config":
                name = next(it, "")
                ref = path.parent / name
                argv.append(str(migrated if ref.resolve() == path.resolve() else ref))
        bad = [d for d in errors if inv.span.line <= d.span.line <= inv.span.end_line or d.span.file != str(path)]
        if plan.source_kind == "serve-config" and b"\nmodel:" not in b"\n" + after:
            # a config without `model:` is used as `vllm serve MODEL --config FILE`
            argv.insert(0, "facebook/opt-125m")
        out.append(
            {
                "name": f"{old}->{new} {path.name} #{n}",
                "argv": ["serve", *argv],
                "expect_ok": not bad,
                "errors": [f"{d.code} {d.message}" for d in bad],
            }
        )
    return out


@pytest.mark.slow
@pytest.mark.parametrize("new", ["0.13.0", "0.20.2", "0.27.1", "0.33.0"])
def test_real_parser_accepts_every_migrated_serve_argv(new: str, tmp_path: Path) -> None:
    from test_fidelity import _clean_env, build_oracle_venv, installed_oracle_version

    from vcfg.catalog.extract.source import from_version

    cases = [c for old, b, path in CASES if b == new for c in _argvs(old, new, path, tmp_path)]
    assert len(cases) >= 5
    python = build_oracle_venv()
    extra = {"VLLM_TARGET_DEVICE": "cpu"}
    if new != installed_oracle_version():
        src = from_version(new)
        extra["PYTHONPATH"] = str(src.root)
    f = tmp_path / "cases.json"
    f.write_text(json.dumps([{"name": c["name"], "argv": c["argv"]} for c in cases]))
    proc = subprocess.run(
        [str(python), str(ORACLE), str(f)], capture_output=True, text=True, timeout=900, env=_clean_env(**extra)
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    verdicts = json.loads(proc.stdout.strip().splitlines()[-1])
    rejected = [
        f"{c['name']}: {verdicts[c['name']]['error']}"
        for c in cases
        if c["expect_ok"] and not verdicts[c["name"]]["ok"]
    ]
    named = [c for c in cases if not c["expect_ok"]]
    print(
        f"vllm {new}: {len(cases)} migrated serve launches, {len(cases) - len(named)} expected to parse, "
        f"{len(rejected)} rejected; {len(named)} with errors named as not migrated, "
        f"{sum(not verdicts[c['name']]['ok'] for c in named)} of them rejected"
    )
    assert rejected == []
