"""A schema error and a lint error never disagree: wherever the committed serve schema
rejects a key of a `vllm serve --config` file, `vcfg lint` reports that key too (lint
knows more, for example the value of a quoted number)."""

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from vcfg.lint.engine import lint_paths

ROOT = Path(__file__).resolve().parents[1]
# tests/corpus/real/ holds public deployment files of every format (annotated in its
# annotations.toml, no vcfg-test header): they are not serve configs of one release.
FILES = sorted(
    p
    for p in (ROOT / "tests" / "corpus").rglob("*.yaml")
    if "real" not in p.relative_to(ROOT / "tests" / "corpus").parts
)


def _key_lines(text):
    node = yaml.compose(text)
    return {k.value: (k.start_mark.line + 1, v.end_mark.line + 1) for k, v in node.value}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_schema_errors_are_lint_findings(path):
    text = path.read_text()
    version = re.search(r"vllm=(\S+)", text).group(1)
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError:
        pytest.skip("not YAML: only lint can say so (VC000)")
    schema = json.loads((ROOT / "schemas" / version / "serve.schema.json").read_text())
    errors = list(jsonschema.Draft7Validator(schema).iter_errors(doc))
    findings = [d for d in lint_paths([str(path)], version).diagnostics if d.severity in ("error", "warning")]
    lines = _key_lines(text)
    for e in errors:
        key = e.path[0]  # an unknown key too: its value fails `additionalProperties`
        first, last = lines[key]
        assert any(first <= d.span.line <= last for d in findings), (
            f"the schema rejects {list(e.path)} ({e.message[:80]}) but lint says nothing there"
        )
    if not findings:
        assert not errors
