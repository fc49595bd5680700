"""`vcfg lint --fix` on the corpus: every finding with a safe fix goes, no clean file
changes by a byte, and a second run changes nothing (tests/corpus/README.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from vcfg.fix.run import fix_files, write_files
from vcfg.lint.engine import lint_paths

CORPUS = Path(__file__).parent / "corpus"
HEADER = "# vcfg-test: vllm="


def version_of(path: Path) -> str:
    first = path.read_text(encoding="utf-8", errors="replace").splitlines()[0]
    assert first.startswith(HEADER), path
    return first[len(HEADER) :].strip()


def _files(kind: str) -> list[Path]:
    return sorted(p for p in (CORPUS / kind).iterdir() if p.is_file() and p.suffix in (".sh", ".yaml"))


def _linter(version: str):  # type: ignore[no-untyped-def]
    def lint(files, contents):  # type: ignore[no-untyped-def]
        return lint_paths(files, version, contents=contents)

    return lint


def _copy(tmp_path: Path, kind: str, name: str) -> Path:
    """The corpus folder copied (a seeded file may read a model folder beside it)."""
    dst = tmp_path / kind
    dst.mkdir(parents=True)
    if (CORPUS / kind / "models").is_dir():
        shutil.copytree(CORPUS / kind / "models", dst / "models")
    shutil.copy2(CORPUS / kind / name, dst / name)
    return dst / name


def _safe(result) -> list:  # type: ignore[no-untyped-def]
    return [d for d in result.diagnostics if d.fix is not None and d.fix.applicability == "safe"]


@pytest.mark.parametrize("path", _files("seeded"), ids=lambda p: p.name)
def test_fix_removes_every_finding_with_a_safe_fix_and_is_idempotent(path: Path, tmp_path: Path) -> None:
    target = _copy(tmp_path, "seeded", path.name)
    lint = _linter(version_of(path))
    before = lint_paths([str(target)], version_of(path))
    run = fix_files([str(target)], lint)
    assert write_files(run) == []
    assert (run.applied > 0) == bool(_safe(before))
    if not run.applied:
        assert target.read_bytes() == path.read_bytes() and _safe(run.result) == []
        return
    after = lint_paths([str(target)], version_of(path))
    assert _safe(after) == [], [(d.code, d.span.line, d.fix.description) for d in _safe(after)]
    assert run.result.diagnostics == after.diagnostics  # the loop's last lint is the report
    again = fix_files([str(target)], lint)
    assert not any(f.changed for f in again.files) and again.applied == 0


def test_the_seeded_corpus_has_safe_fixes_and_fixing_removes_them(tmp_path: Path) -> None:
    """The per-file test above must not pass vacuously: count what it fixed."""
    fixed = {}
    for path in _files("seeded"):
        target = _copy(tmp_path / path.stem, "seeded", path.name)
        run = fix_files([str(target)], _linter(version_of(path)))
        if run.applied:
            fixed[path.name] = run.applied
    for name in (
        "s10-disable-log-requests-0.20.2.sh",
        "s10-attention-backend-env-0.33.0.sh",
        "s10-typographic-quotes-json-0.33.0.sh",
        "unknown-connector-0.33.0.sh",
        "s10-typographic-closing-quote-0.33.0.sh",
        "abbreviated-flag-0.33.0.sh",
        "flag-takes-no-value-0.33.0.sh",
        "env-after-launch-0.33.0.sh",
        "s10-kv-buffer-size-0.33.0.sh",
    ):
        assert fixed.get(name, 0) >= 1, (name, fixed)


@pytest.mark.parametrize("path", _files("clean"), ids=lambda p: p.name)
def test_fix_changes_no_clean_file(path: Path, tmp_path: Path) -> None:
    target = _copy(tmp_path, "clean", path.name)
    run = fix_files([str(target)], _linter(version_of(path)), unsafe=True)
    assert write_files(run) == []
    assert target.read_bytes() == path.read_bytes()


# --------------------------------------------------------------------------- the command


def _vcfg(*argv: str) -> tuple[int, str, str]:
    from cli_run import run_vcfg

    proc = run_vcfg("lint", *argv)
    return proc.returncode, proc.stdout, proc.stderr


SCRIPT = (
    "vllm serve facebook/opt-125m \\\n"
    "  --trust-remote-code=true \\\n"
    "  --max-num-seq 64 \\\n"
    "  --max-num-batched-tokens 8192 --max-modle-len 4096\n"
)


def test_diff_prints_the_fixes_and_changes_nothing(tmp_path: Path) -> None:
    f = tmp_path / "run.sh"
    f.write_text(SCRIPT)
    code, out, err = _vcfg("--vllm-version", "0.33.0", "--diff", str(f))
    assert f.read_text() == SCRIPT
    assert code == 1 and "would fix 2 findings in 1 file" in err
    assert out.splitlines()[2:] == [
        "@@ -1,4 +1,4 @@",
        " vllm serve facebook/opt-125m \\",
        "-  --trust-remote-code=true \\",
        "-  --max-num-seq 64 \\",
        "+  --trust-remote-code \\",
        "+  --max-num-seqs 64 \\",
        "   --max-num-batched-tokens 8192 --max-modle-len 4096",
    ]
    # the did-you-mean is unsafe: only with --unsafe-fixes
    code, out, err = _vcfg("--vllm-version", "0.33.0", "--diff", "--unsafe-fixes", str(f))
    assert "+  --max-num-batched-tokens 8192 --max-model-len 4096" in out.splitlines()


def test_fix_writes_the_safe_fixes_and_reports_what_is_left(tmp_path: Path) -> None:
    f = tmp_path / "run.sh"
    f.write_text(SCRIPT)
    code, out, err = _vcfg("--vllm-version", "0.33.0", "--fix", "--format", "concise", str(f))
    assert f.read_text() == SCRIPT.replace("=true", "").replace("-seq ", "-seqs ")
    assert code == 1 and "fixed 2 findings in 1 file; 1 left (some have unsafe fixes: --unsafe-fixes)" in err
    assert [line.split(" ")[1] for line in out.splitlines() if "VC" in line] == ["VC001"]
    code, out, err = _vcfg("--vllm-version", "0.33.0", "--fix", "--unsafe-fixes", str(f))
    assert code == 0 and "--max-model-len 4096" in f.read_text()


def test_a_file_changed_after_linting_is_not_written(tmp_path: Path) -> None:
    f = tmp_path / "run.sh"
    f.write_text(SCRIPT)
    run = fix_files([str(f)], _linter("0.33.0"))
    assert run.applied == 2
    f.write_text(SCRIPT + "# edited meanwhile\n")
    assert write_files(run) == [f"{f}: changed since it was linted; not fixed"]
    assert f.read_text() == SCRIPT + "# edited meanwhile\n"


def test_fix_refuses_stdin(tmp_path: Path) -> None:
    code, _, err = _vcfg("--fix", "-")
    assert code == 2 and "--fix cannot write to stdin" in err


def test_the_lint_path_loads_no_fix_code(tmp_path: Path) -> None:
    """Fixes are applied only with --fix/--diff: a plain lint (the pre-commit hook) never
    imports vcfg.fix or vcfg.upgrade, nor does it when the findings carry fixes."""
    import subprocess
    import sys

    f = tmp_path / "run.sh"
    f.write_text(SCRIPT)
    code = (
        "import sys; sys.argv = ['vcfg', 'lint', '--vllm-version', '0.33.0', sys.argv[1]]\n"
        "from vcfg.cli import main\n"
        "try:\n    main()\n"
        "finally:\n"
        "    print(sorted(m for m in sys.modules if m.startswith(('vcfg.fix', 'vcfg.upgrade'))),"
        " file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(f)], capture_output=True, text=True)
    assert proc.returncode == 1 and "VC009" in proc.stdout
    assert proc.stderr.strip().splitlines()[-1] == "[]"


def test_every_fix_is_declared_by_its_rule_with_its_safety(tmp_path: Path) -> None:
    """Rule pages list the fixes from RULE.fixes: a fix a rule offers without declaring
    it (or at another safety) would be missing from its page."""
    from vcfg.lint.registry import all_rules

    declared = {r.code: {f.applicability for f in r.fixes} for r in all_rules()}
    seen: set[tuple[str, str]] = set()
    by_version: dict[str, list[str]] = {}
    for path in _files("seeded") + _files("clean"):
        by_version.setdefault(version_of(path), []).append(str(path))
    for version, paths in by_version.items():
        for d in lint_paths(paths, version).diagnostics:
            if d.fix is not None:
                seen.add((d.code, d.fix.applicability))
                assert d.fix.applicability in declared[d.code], (d.span.file, d.code, d.fix.description)
    assert len(seen) >= 8  # the corpus exercises most of them
