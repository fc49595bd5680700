"""The lint corpus: correct launches that must lint clean, and seeded mistakes that
must give exactly the findings written in them.  Format: tests/corpus/README.md.

The corpus tests run `vcfg.lint.engine.lint_paths` on one file at a time with the
release named in the file's ``# vcfg-test: vllm=X`` header.  Until the lint engine
exists they skip; the format tests below (headers, expectations, positions, coverage
of every rule code) and the fact check of the clean files against the bundled
catalogs run regardless.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

CORPUS = Path(__file__).parent / "corpus"
RULES_README = Path(__file__).parent.parent / "docs" / "rules" / "README.md"
HEADER = re.compile(r"^#\s*vcfg-test:\s*vllm=(\d+\.\d+\.\d+)\s*$")
EXPECT = re.compile(r"^#\s*vcfg-expect:\s*(VC\d{3})\s+(\d+):(\d+)\s*$")
EXPECT_LOOSE = re.compile(r"vcfg-expect")
REPORTED = ("error", "warning")


def _files(kind: str) -> list[Path]:
    folder = CORPUS / kind
    return sorted(p for p in folder.iterdir() if p.suffix in (".sh", ".yaml", ".yml"))


CLEAN = _files("clean")
SEEDED = _files("seeded")


def _ids(paths: list[Path]) -> list[str]:
    return [p.name for p in paths]


def target_version(path: Path) -> str:
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    m = HEADER.match(first)
    assert m, f"{path.name}: the first line must be '# vcfg-test: vllm=X.Y.Z', got {first!r}"
    return m.group(1)


def expectations(path: Path) -> set[tuple[str, int, int]]:
    out: set[tuple[str, int, int]] = set()
    for i, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        m = EXPECT.match(line)
        if m:
            out.add((m.group(1), int(m.group(2)), int(m.group(3))))
        else:
            assert not EXPECT_LOOSE.search(line), f"{path.name}:{i}: malformed expectation {line!r}"
    return out


#: The codes of the rule contract (docs/rules/README.md as first written): each must
#: have a seeded example even before its rule exists.
CONTRACT_CODES = frozenset(
    "VC000 VC001 VC002 VC003 VC004 VC005 VC006 VC007 VC008 VC009 VC010 "
    "VC020 VC021 VC022 VC023 VC024 VC025 VC026 VC027 VC028 VC029 VC030 "
    "VC101 VC102 VC103 VC104 VC105 VC106 VC107 VC108 VC201 VC202 VC203 "
    "VC301 VC302 VC303 VC304 VC305 VC306 VC900".split()
)


def rule_codes() -> set[str]:
    """The contract codes, plus every code the rules page and the registry name."""
    codes = set(CONTRACT_CODES)
    codes |= set(re.findall(r"^\| \[?(VC\d{3})\b", RULES_README.read_text(), re.M))
    try:
        from vcfg.lint import registry
    except ImportError:
        return codes
    for name in getattr(registry, "RULE_MODULES", ()):
        m = re.match(r"vc(\d{3})_", name)
        if m:
            codes.add("VC" + m.group(1))
    return codes


# --------------------------------------------------------------------------- the engine


@pytest.fixture(scope="module")
def engine() -> Any:
    mod = pytest.importorskip(
        "vcfg.lint.engine",
        reason="vcfg.lint.engine is not written yet: the lint corpus cannot run",
    )
    if not hasattr(mod, "lint_paths"):
        pytest.skip("vcfg.lint.engine has no lint_paths yet: the lint corpus cannot run")
    return mod


@pytest.fixture(scope="module")
def written_codes(engine: Any) -> set[str]:
    """Codes of the rules that exist; the registry skips rules not written yet."""
    from vcfg.lint import registry

    return {r.code for r in registry.all_rules()}


def _lint(engine: Any, path: Path) -> list[Any]:
    from vcfg.lint.config import load_config

    # the project config nearest the file (seeded/.vcfg.toml sets gpu-memory for VC206)
    result = engine.lint_paths([str(path)], version=target_version(path), config=load_config(path.parent))
    return [d for d in result.diagnostics if d.severity in REPORTED]


def _describe(diags: list[Any]) -> str:
    return "\n".join(
        f"  {d.code} {d.span.line}:{d.span.col} [{d.severity}] {d.message}"
        for d in sorted(diags, key=lambda d: (d.span.line, d.span.col, d.code))
    )


@pytest.mark.parametrize("path", CLEAN, ids=_ids(CLEAN))
def test_clean_file_lints_clean(engine: Any, path: Path) -> None:
    found = _lint(engine, path)
    assert not found, f"false positives in {path.name} (vllm {target_version(path)}):\n" + _describe(found)


@pytest.mark.parametrize("path", SEEDED, ids=_ids(SEEDED))
def test_seeded_file_gives_exactly_its_findings(engine: Any, written_codes: set[str], path: Path) -> None:
    """Exact match for the rules that exist; expectations of rules not written yet are
    left out, and the test then ends as xfail naming them."""
    all_expected = expectations(path)
    expected = {e for e in all_expected if e[0] in written_codes}
    pending = sorted({e[0] for e in all_expected - expected})
    diags = _lint(engine, path)
    got = {(d.code, d.span.line, d.span.col) for d in diags}
    missing = sorted(expected - got, key=lambda t: (t[1], t[2], t[0]))
    unexpected = [d for d in diags if (d.code, d.span.line, d.span.col) not in expected]
    keys = [(d.code, d.span.line, d.span.col) for d in diags]
    unexpected += [d for i, d in enumerate(diags) if keys[i] in keys[:i]]  # reported twice
    message = f"{path.name} (vllm {target_version(path)}):"
    if missing:
        message += "\n missing:\n" + "\n".join(f"  {c} {ln}:{col}" for c, ln, col in missing)
    if unexpected:
        message += "\n unexpected:\n" + _describe(unexpected)
    assert not missing and not unexpected, message
    if pending:
        pytest.xfail(f"rules not written yet: {', '.join(pending)}")


# --------------------------------------------------------------------------- the format


def test_corpus_sizes() -> None:
    assert len(CLEAN) >= 24, len(CLEAN)
    assert len(SEEDED) >= 30, len(SEEDED)


@pytest.mark.parametrize("path", CLEAN + SEEDED, ids=_ids(CLEAN + SEEDED))
def test_header_names_a_bundled_release(path: Path) -> None:
    from vcfg.catalog import store

    version = target_version(path)
    store.load_exact(version)  # raises VcfgError when no catalog of exactly this release


@pytest.mark.parametrize("path", CLEAN, ids=_ids(CLEAN))
def test_clean_files_expect_nothing(path: Path) -> None:
    assert expectations(path) == set()


@pytest.mark.parametrize("path", SEEDED, ids=_ids(SEEDED))
def test_seeded_expectations_point_at_a_word(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    expected = expectations(path)
    assert expected, f"{path.name} expects no finding"
    for code, line, col in expected:
        assert 1 <= line <= len(lines), (code, line)
        text = lines[line - 1]
        assert 1 <= col <= len(text), (code, line, col, text)
        assert not text[col - 1].isspace(), (code, line, col, text)
        assert not EXPECT.match(text) and not HEADER.match(text), "points at the header"


def test_every_rule_code_is_seeded() -> None:
    codes = rule_codes()
    seeded = {code for p in SEEDED for code, _, _ in expectations(p)}
    assert not codes - seeded, f"codes without a seeded example: {sorted(codes - seeded)}"
    assert not seeded - codes, f"unknown codes expected: {sorted(seeded - codes)}"


def test_seed_copies_hold_the_users_script() -> None:
    """The two seed copies carry the user's decode script verbatim."""
    body: list[str] | None = None
    for name in ("seed-decode-0.33.0.sh", "seed-decode-0.13.0.sh"):
        lines = (CORPUS / "seeded" / name).read_text(encoding="utf-8").splitlines()
        script = [ln for ln in lines if not ln.startswith("# vcfg-")]
        assert script[0] == "export VLLM_RPC_TIMEOUT=600000"
        assert script[-1].endswith("> decode-ori.log &")
        body = body or script
        assert script == body


# --------------------------------------------------------------------------- the facts


def _fact_checker() -> Any:
    spec = importlib.util.spec_from_file_location("vcfg_corpus_facts", CORPUS / "check_corpus_facts.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("path", CLEAN, ids=_ids(CLEAN))
def test_clean_file_facts_hold_for_its_release(path: Path) -> None:
    """Independent of vcfg lint: every option, key, connector and variable of a clean
    file exists in its release's bundled catalog and parses (check_corpus_facts.py)."""
    problems = _fact_checker().check_file(path)
    assert problems == []


def test_fact_checker_catches_mistakes() -> None:
    """The fact check is not vacuous: it finds the mistakes seeded in these files."""
    checker = _fact_checker()
    seeded = CORPUS / "seeded"
    assert any("VLLM_RPC_TIMEOUT" in p for p in checker.check_file(seeded / "seed-decode-0.33.0.sh"))
    assert any("--tensor-paralel-size" in p for p in checker.check_file(seeded / "unknown-flag-typo-0.33.0.sh"))
    assert any("kv_buffer_size" in p for p in checker.check_file(seeded / "s10-kv-buffer-size-0.33.0.sh"))
    assert any("backend" in p for p in checker.check_file(seeded / "unknown-extra-key-0.33.0.sh"))
    assert any("deprecated" in p for p in checker.check_file(seeded / "serve-config-deprecated-0.13.0.yaml"))
    assert checker.check_file(seeded / "seed-decode-0.13.0.sh") == []
