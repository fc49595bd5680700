"""Docs examples are tests: each rule's Example triggers it, its Use instead does not,
and the generated pages are current."""

import pytest

from vcfg.catalog import store
from vcfg.catalog.versions import parse_range
from vcfg.dev import rule_pages
from vcfg.lint.config import load_config
from vcfg.lint.engine import lint_paths
from vcfg.lint.registry import RULE_MODULES, all_rules

RULES = [r for r in all_rules() if r.example]


def _version(rule):
    versions = store.bundled_versions()
    if rule.versions:
        rng = parse_range(rule.versions)
        versions = [v for v in versions if rng.contains(v)]
    return versions[-1]


def _codes(tmp_path, rule, text):
    f = tmp_path / ("serve.yaml" if rule.example_kind == "yaml" else "launch.sh")
    f.write_text(text)
    for rel, content in rule.example_files:
        extra = tmp_path / rel
        extra.parent.mkdir(parents=True, exist_ok=True)
        extra.write_text(content)
    # the project config next to the example (a .vcfg.toml among its files), else defaults
    config = load_config(tmp_path)
    return {d.code for d in lint_paths([str(f)], _version(rule), config=config).diagnostics}


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_example_triggers_the_rule(tmp_path, rule):
    assert rule.code in _codes(tmp_path, rule, rule.example)


@pytest.mark.parametrize("rule", [r for r in RULES if r.use_instead], ids=lambda r: r.code)
def test_use_instead_does_not(tmp_path, rule):
    assert rule.code not in _codes(tmp_path, rule, rule.use_instead)


def test_every_rule_has_docs_material():
    for r in all_rules():
        assert r.why and r.example, f"{r.code} lacks why/example"


def test_codes_and_names_are_unique_and_match_modules():
    rules = all_rules()
    assert len({r.code for r in rules}) == len(rules)
    assert len({r.name for r in rules}) == len(rules)
    for r in rules:
        assert f"{r.code.lower()}_{r.name.replace('-', '_')}" in RULE_MODULES


def test_generated_pages_are_current():
    assert rule_pages.write(check=True) == [], "run: python -m vcfg.dev generate --only rules"
