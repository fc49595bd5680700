"""Lint and the strict serve schema say the same thing about a `vllm serve --config` file.

Serve configs are generated from each release's catalog (tests/schema_cases.py): a
valid value for every option, and one mistake per case of each class a schema can
state: an unknown key, a wrong type, a number out of range, a wrong choice or
registered name, a `false` the loader drops, each at the top level and inside the
mapping of every JSON-valued option (nested config classes included).  Each file is
linted by `vcfg lint` and validated by the strict serve schema (docs/schemas.md,
"Default and strict"); for every file, a lint finding (error or warning) is a schema
error at the same key and the reverse, apart from the rules below, which judge what
one file's keys and values cannot show.
"""

from __future__ import annotations

import collections
from functools import lru_cache
from pathlib import Path

import jsonschema
import pytest
import yaml
from schema_cases import Case, cases

from vcfg.catalog import store
from vcfg.lint.engine import lint_paths
from vcfg.lint.registry import all_rules
from vcfg.schema.api import make_schema

#: the rules a schema of one file cannot express, each with the reason
NOT_EXPRESSIBLE: dict[str, str] = {
    "VC000": "the file is not YAML (or not a mapping): there is nothing to validate",
    "VC003": "a deprecated option works: the schema marks it `deprecated` (editors strike it through), "
    "an annotation and not an error",
    "VC007": "the same option twice (two spellings, a dotted key after the JSON value): which one wins "
    "depends on the order of the keys, which JSON Schema does not see",
    "VC010": "`model:` in the file versus the command line's positional model: the command line decides",
    "VC013": "a subcommand is a word of a command line, not a key",
    # VC020 on a mapping before 0.16 (passed on as Python text) is a schema error too
    "VC020": "JSON text inside a string: a schema sees a string, not what it holds",
    "VC021": "quote look-alikes inside a JSON string: text inside a string",
    "VC900": "suppression comments: YAML comments are not part of the document",
}
# cross-field: a finding about two or more options (or an option and the launch around it)
for _code in (
    "VC201",
    "VC202",
    "VC209",
    "VC210",
    "VC211",
    "VC212",
    "VC213",
    "VC214",
    "VC215",
    "VC216",
    "VC218",
    "VC219",
    "VC220",
    "VC221",
    "VC222",
    "VC225",
    "VC226",
    "VC227",
    "VC228",
    "VC229",
    "VC233",
    "VC234",
    "VC235",
    "VC236",
    "VC237",
    "VC238",
    "VC239",
    "VC240",
    "VC241",
    "VC243",
    "VC244",
):
    NOT_EXPRESSIBLE[_code] = "cross-field: it relates several options' values"
NOT_EXPRESSIBLE["VC231"] = (
    "cross-field: a KV transfer config without kv_connector fails unless "
    "--kv-offloading-size (another option) fills the connector in"
)
# the environment and the machine: variables, GPUs, hosts, other files of the deployment
for _code in ("VC203", "VC217", "VC306"):
    NOT_EXPRESSIBLE[_code] = "the machine: the number of GPUs on the host"
for _code in ("VC301", "VC302", "VC303", "VC304", "VC305", "VC307", "VC308"):
    NOT_EXPRESSIBLE[_code] = "the deployment: other launches, proxies and ports"
for _code in ("VC204", "VC205", "VC206", "VC207", "VC208", "VC245", "VC261", "VC262", "VC263", "VC264"):
    NOT_EXPRESSIBLE[_code] = "the model: its config.json (a local directory or the Hugging Face cache)"
for _rule in all_rules():
    if _rule.code.startswith("VC1"):
        NOT_EXPRESSIBLE[_rule.code] = "the environment: variables are not keys of a serve config"


def _expressible(code: str) -> bool:
    return code not in NOT_EXPRESSIBLE


def _counted(d, value) -> bool:
    """A lint finding the schema must share; VC020 only where the value is not text."""
    if d.code == "VC020":
        return not isinstance(value, str)
    return _expressible(d.code)


def test_every_excluded_rule_exists_and_says_why():
    codes = {r.code for r in all_rules()}
    for code, why in NOT_EXPRESSIBLE.items():
        assert code in codes, f"{code} is excluded but no rule has that code"
        assert len(why) > 20


def test_the_listed_exclusions_are_the_only_ones():
    """A rule not listed is expressible: a new rule that a schema cannot state must be
    added above with its reason (and one it can state, to the schema)."""
    kept = sorted(r.code for r in all_rules() if _expressible(r.code))
    assert {
        "VC001",
        "VC004",
        "VC005",
        "VC006",
        "VC009",
        "VC011",
        "VC012",
        "VC014",
        "VC022",
        "VC023",
        "VC024",
        "VC025",
        "VC026",
        "VC027",
        "VC224",
        "VC230",
        "VC260",
    } <= set(kept) | {"VC020"}


def _key_lines(text: str) -> dict[str, tuple[int, int]]:
    # libyaml's composer: the same nodes and marks as the pure-Python one, 10x faster
    # (1359 generated configs: 0.5 s to 0.04 s)
    node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return {k.value: (k.start_mark.line + 1, v.end_mark.line + 1) for k, v in node.value}


@lru_cache(maxsize=None)
def _validator(version: str) -> jsonschema.Draft7Validator:
    cat, _ = store.load(version)
    return jsonschema.Draft7Validator(make_schema("serve", cat, strict=True))


_ROWS: dict[str, list] = {}


@pytest.fixture
def rows(version, tmp_path_factory):
    if version not in _ROWS:
        _ROWS[version] = _run(version, tmp_path_factory.mktemp(f"serve-{version}"))
    return _ROWS[version]


def _run(version: str, tmp: Path) -> list[tuple[Case, list, list, dict]]:
    cat, _ = store.load(version)
    generated = cases(cat)
    paths = []
    texts = []
    for i, c in enumerate(generated):
        p = tmp / f"case{i:04d}.vllm.yaml"
        # libyaml's emitter: the same text as yaml.safe_dump for all 1,359 cases, 4x faster
        text = yaml.dump(c.doc, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False)
        p.write_text(text)
        paths.append(str(p))
        texts.append(text)
    result = lint_paths(paths, version)
    assert not result.internal_errors
    by_file = collections.defaultdict(list)
    for d in result.diagnostics:
        by_file[d.span.file].append(d)
    val = _validator(version)
    out = []
    for c, p, text in zip(generated, paths, texts):
        lint = [d for d in by_file.get(p, []) if d.severity in ("error", "warning") and _counted(d, c.doc.get(c.key))]
        errors = list(val.iter_errors(c.doc))
        out.append((c, lint, errors, _key_lines(text)))
    return out


RELEASES = ["0.33.0", "0.13.0"]


@pytest.mark.parametrize("version", RELEASES)
def test_lint_findings_are_strict_schema_errors_and_the_reverse(version, rows):
    disagree = []
    for c, lint, errors, lines in rows:
        if bool(lint) != bool(errors):
            disagree.append(
                f"{c.name}: lint {[(d.code, d.message[:60]) for d in lint]}, schema {[e.message[:60] for e in errors]}"
            )
            continue
        first, last = lines[c.key]
        for d in lint:  # the same key
            assert first <= d.span.line <= last, f"{c.name}: {d.code} at line {d.span.line}, not at {c.key}"
        for e in errors:
            assert e.absolute_path and e.absolute_path[0] == c.key, f"{c.name}: schema error at {list(e.absolute_path)}"
    assert not disagree, (
        f"{len(disagree)} of {len(rows)} configs where lint and the strict schema disagree "
        "(a new rule a schema cannot state belongs in NOT_EXPRESSIBLE; one it can, in the schema: "
        "vcfg/schema/checks.py, Constraint.schema):\n" + "\n".join(disagree[:40])
    )


@pytest.mark.parametrize("version", RELEASES)
def test_the_generated_mistakes_are_mistakes(version, rows):
    """The generator is not vacuous: every case it calls a mistake is one for lint,
    and every class of mistake occurs, at the top level and inside JSON values."""
    kinds = collections.Counter()
    missed = []
    for c, lint, _errors, _ in rows:
        if not c.bad:
            continue
        kinds[(c.kind, "." in c.name.split(":", 1)[1])] += 1
        if not lint:
            missed.append(c.name)
    assert not missed, missed[:20]
    assert kinds[("unknown-key", False)] >= 3
    for kind in ("wrong-type", "out-of-range", "wrong-choice", "false"):
        assert kinds[(kind, False)] >= 5, (kind, kinds)
    if version == "0.33.0":
        for kind in ("unknown-key", "wrong-type", "out-of-range", "wrong-choice"):
            assert kinds[(kind, True)] >= 5, (kind, kinds)
        assert sum(kinds.values()) >= 400
    else:
        assert kinds[("python-text", False)] >= 5


def test_value_sets_reach_the_schema():
    """The examples of issue 16 that are single values: lint and the schema both reject."""
    v = _validator("0.33.0")
    base = {"model": "Qwen/Qwen3-8B"}
    for doc in (
        {"quantization": "gptq4"},
        {"attention-backend": "FLASH"},
        {"kv-cache-dtype": "fp4"},
        {"reasoning-parser": "deepseek-r2"},
        {"enable-auto-tool-choice": True, "tool-call-parser": "hermess"},
        {"speculative-config": {"method": "ngramm"}},
        {"speculative-config": {"num_speculative_tokens": -1}},
        {"speculative-config": {"num_speculative_token": 3}},
        {"max-model-len": 0},
        {"data-parallel-backend": "multiprocessing"},
    ):
        assert not v.is_valid({**base, **doc}), doc
    for doc in (
        {"quantization": "gptq"},
        {"attention-backend": "flash_attn"},  # case-insensitive
        {"reasoning-parser": "none"},  # mapped away before the lookup
        {"tool-call-parser": "hermess"},  # looked up only with --enable-auto-tool-choice
        {
            "enable-auto-tool-choice": True,
            "tool-call-parser": "mine",
            "tool-parser-plugin": "my_parsers.py",
        },  # a plugin may add names
        {"quantization": None},
        {"max-model-len": -1},
    ):
        assert v.is_valid({**base, **doc}), (doc, [e.message for e in v.iter_errors({**base, **doc})])


def test_a_json_valued_option_names_the_schema_of_its_class():
    from vcfg.schema.build import resolve_kind

    cat, _ = store.load("0.33.0")
    assert resolve_kind(cat, "speculative-config") == "SpeculativeConfig"  # json.loads, then the class
    assert resolve_kind(cat, "--compilation-config") == "CompilationConfig"
    assert resolve_kind(cat, "kv_transfer_config") == "kv-transfer-config"
    s = make_schema("speculative-config", cat, strict=True)
    v = jsonschema.Draft7Validator(s)
    assert v.is_valid({"method": "ngram", "num_speculative_tokens": 3})
    assert [list(e.absolute_path) for e in v.iter_errors({"method": "ngramm"})] == [["method"]]
