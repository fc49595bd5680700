"""A document's lints keep the launch rules' findings of launches that did not change
(`vcfg.lint.rule_reuse`, the language server): the findings equal a lint from
scratch edit after edit, and what a rule reads beyond its launch (the file, the disk)
makes its findings not kept."""

from __future__ import annotations

import random
import types
from pathlib import Path

import pytest

from vcfg.lint import rule_reuse
from vcfg.lint.config import LintConfig
from vcfg.lint.engine import lint_text, make_target
from vcfg.lint.registry import rule_modules
from vcfg.lint.rule_reuse import Reuse, RuleMemo, keepable

ROOT = Path(__file__).resolve().parent
FIXTURE = ROOT / "fixtures" / "lsp" / "pd-2p2d-200.sh"


@pytest.fixture(scope="module")
def t13():
    return make_target("0.13.0", LintConfig())


def found(r):  # type: ignore[no-untyped-def]
    return [(d.code, d.span.position(), d.message, d.help, d.fix) for d in r.diagnostics]


def test_edits_give_the_findings_of_a_lint_from_scratch(t13):
    text = FIXTURE.read_text()
    steps = [
        text,
        text.replace("--max-num-seqs 256", "--max-num-seqz 256", 1),  # a typo in the first launch
        text.replace("--max-num-seqs 256", "--max-num-seqz 2560", 1),
        text.replace("--port 20003", "--port 20001", 1),  # a port clash (a run rule) between launches
        text.replace("# note 7:", "# note 7: typed", 1),
        text.replace("export VLLM_USE_V1=1", "export VLLM_USE_V1=maybe", 1),  # every launch's environment
        text,
    ]
    reuse = Reuse()
    kept = 0
    for k, s in enumerate(steps):
        got = lint_text(str(FIXTURE), s.encode(), t13, reuse=reuse)
        assert found(got) == found(lint_text(str(FIXTURE), s.encode(), t13)), k
        kept += reuse.rules.kept
    # most rules on the unchanged launches were not run again (246 kept: the rule index,
    # vcfg/lint/rule_select.py, leaves out the constraint modules no launch gives an
    # operand to, which were 226 of the 472 kept before it)
    assert kept > 200


@pytest.mark.parametrize("seed", [0])
def test_random_edits_on_the_corpus(t13, seed):
    rnd = random.Random(seed)
    files = sorted(f for f in (ROOT / "corpus").rglob("*.sh") if f.stat().st_size < 32 * 1024)
    for f in rnd.sample(files, 20):
        data = f.read_bytes()
        reuse = Reuse()
        lines = data.split(b"\n")
        for _ in range(4):
            i = rnd.randrange(len(lines))
            s = lines[i]
            k = rnd.randrange(len(s) + 1)
            lines[i] = s[:k] + rnd.choice([b"1", b"x", b" -", b"=", b"#"]) + s[k:]
            new = b"\n".join(lines)
            got = lint_text(str(f), new, t13, reuse=reuse)
            assert found(got) == found(lint_text(str(f), new, t13)), (f, i)


def test_a_rule_that_reads_the_file_is_not_kept(t13):
    calls = []

    def check(lc):  # type: ignore[no-untyped-def]
        calls.append(lc.inv.span)
        if len(lc.file.lines) > 0:  # reads the file: its findings may change with it
            return []
        return []

    mod = types.ModuleType("vcfg.lint.rules.vc999_test")
    mod.RULE = types.SimpleNamespace(code="VC999")  # type: ignore[attr-defined]
    mod.check = check  # type: ignore[attr-defined]
    rule_reuse._keepable[mod.__name__] = True
    memo = RuleMemo()

    class L:  # a launch as the engine makes it
        def __init__(self) -> None:
            from vcfg.lint.context import FileContext

            self.file = FileContext(path="a.sh", text="x\n", plan=None, target=t13)
            self.inv = types.SimpleNamespace(span=(1,))
            self.own_target = self.args = None
            self.catalog = t13.catalog
            self.memo: dict = {}
            self.path = "a.sh"

    for _ in range(3):
        lc = L()
        run = memo.checker([lc], lambda m, x: list(m.check(x)), [])
        run(mod, lc)
    assert len(calls) == 3 and memo.kept == 0


def test_model_rules_read_the_disk_and_are_never_kept():
    mods = {m.RULE.code: m for m in rule_modules()}
    assert not keepable(mods["VC206"])  # the model's config.json
    assert not keepable(mods["VC263"])
    assert keepable(mods["VC001"]) and keepable(mods["VC101"])


def test_the_release_keys_of_the_run_memo_are_their_owners():
    """The run memo's entries a kept rule may read are keyed by the catalog where they
    are made (a renamed key only makes those rules run again; this test says so)."""
    src = {
        "constraints.defaults": ROOT.parent / "vcfg" / "lint" / "constraints.py",
        "near_miss": ROOT.parent / "vcfg" / "lint" / "rules" / "_env.py",
        "vc025.enums": ROOT.parent / "vcfg" / "lint" / "rules" / "vc025_config_value_choice.py",
    }
    assert set(src) == set(rule_reuse._RELEASE_KEYS)
    for key, path in src.items():
        text = path.read_text()
        assert f'"{key}"' in text and "is not cat" in text or "is catalog" in text, key


def test_the_launch_keys_of_a_launch_memo_read_neither_the_file_nor_the_run():
    import inspect

    from vcfg.lint import constraints, options, rule_select

    assert set(rule_reuse._LAUNCH_KEYS) == {"option", "constraints._raw", "rule_select"}
    for fn in (
        options.option,
        options._option,
        constraints._raw,
        constraints._raw_key,
        constraints.gives_any,
        rule_select._indexed_for,
    ):
        src = inspect.getsource(fn)
        assert ".file" not in src.replace("where.file", "").replace("span.file", ""), fn.__name__
    assert 'lc.memo["option"]' in inspect.getsource(options.option)
    assert 'lc.memo["rule_select"]' in inspect.getsource(rule_select._indexed_for)
