"""vcfg.catalog.envparse.check_env_value: would vLLM raise on this value?

Fast tests build EnvVar values by hand.  The slow test sets probe values, one variable
at a time, in each real release's envs.py executed standalone (catalog_envs_oracle.py)
and checks that check_env_value flags exactly the values on which vLLM raises.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

import pytest
from catalog_envs_oracle import IDIOMS, RELEASES, environment_error, run_envs_oracle
from hypothesis import given, settings
from hypothesis import strategies as st

from vcfg.catalog.envparse import check_env_value
from vcfg.catalog.extract.envs import extract_env_vars, extract_env_vars_from_text
from vcfg.catalog.model import EnvVar, Loc
from vcfg.launch.args.behaviour import since, version_tuple

L = Loc(file="vllm/envs.py", line=1)


def var(parse: str, **kw: Any) -> EnvVar:
    return EnvVar(name="V", type="str", parse=parse, loc=L, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", ["1", "0", "-1", " 7 ", "+3", "1_000"])
def test_bool_int_accepts_integers(value: str) -> None:
    assert check_env_value(var("bool_int"), value) is None


@pytest.mark.parametrize("value", ["true", "false", "yes", "", "1.0", "on"])
def test_bool_int_rejects_words(value: str) -> None:
    problem = check_env_value(var("bool_int"), value)
    assert problem is not None
    assert problem == f"'{value}' is not an integer (read as bool(int(value)))"  # VC102's help says "use 1 or 0"


def test_int() -> None:
    assert check_env_value(var("int"), "600") is None
    assert check_env_value(var("int"), "abc") == "'abc' is not an integer"
    assert check_env_value(var("int"), "1.5") == "'1.5' is not an integer"
    assert check_env_value(var("int"), "") == "'' is not an integer"


def test_float() -> None:
    for ok in ("1", "1.5", "-2e3", " 3 ", "inf"):
        assert check_env_value(var("float"), ok) is None
    assert check_env_value(var("float"), "abc") == "'abc' is not a number"
    assert check_env_value(var("float"), "1,5") == "'1,5' is not a number"


def test_choices_case_sensitive() -> None:
    v = var("choices", choices=["spawn", "fork"], case_sensitive=True)
    assert check_env_value(v, "fork") is None
    assert check_env_value(v, "Fork") == ("'Fork' is not one of: spawn, fork (matching is case-sensitive)")
    assert check_env_value(v, "thread") == "'thread' is not one of: spawn, fork"
    assert check_env_value(v, "") == "'' is not one of: spawn, fork"


def test_choices_case_insensitive() -> None:
    v = var("choices", choices=["highest", "High"], case_sensitive=False)
    for ok in ("HIGHEST", "high", "High"):
        assert check_env_value(v, ok) is None
    assert check_env_value(v, "low") == "'low' is not one of: highest, High"


def test_long_choice_lists_are_cut() -> None:
    v = var("choices", choices=[f"C{i}" for i in range(30)])
    problem = check_env_value(v, "X")
    assert problem == "'X' is not one of: " + ", ".join(f"C{i}" for i in range(12)) + (", ... (30 in all)")


def test_unresolved_choices_are_not_judged() -> None:
    assert check_env_value(var("choices", choices=None), "anything") is None


def test_set_choices() -> None:
    v = var("set_choices", choices=["container", "web"])
    assert check_env_value(v, "container, web") is None
    assert check_env_value(v, "") is None  # no items: the default list
    assert check_env_value(v, ",,") is None
    assert check_env_value(v, "web,shell") == "'shell' in 'web,shell' is not one of: container, web"


def test_port() -> None:
    v = var("port")
    assert check_env_value(v, "5000") is None
    problem = check_env_value(v, "tcp://10.0.0.1:5000")
    assert problem is not None and "URI" in problem and "'tcp://10.0.0.1:5000'" in problem
    assert check_env_value(v, "abc") == "'abc' is not an integer port"
    assert "URI" not in (check_env_value(v, "10.0.0.1:5000") or "")


def test_json() -> None:
    v = var("json")
    assert check_env_value(v, '{"a": 1}') is None
    assert check_env_value(v, "[1, 2]") is None
    problem = check_env_value(v, "{bad")
    assert problem is not None and problem.startswith("'{bad' is not valid json")
    # a path to a JSON file is accepted (maybe_convert_json_str_or_file); its
    # existence is only known where vLLM runs
    assert check_env_value(v, "/etc/quant.json") is None
    assert check_env_value(v, "cfg.json") is None


@pytest.mark.parametrize("parse", ["str", "bool_word", "list", "other"])
def test_never_judged(parse: str) -> None:
    for value in ("", "true", "abc", "tcp://x:1", "{bad"):
        assert check_env_value(var(parse), value) is None


def test_long_values_are_shortened() -> None:
    problem = check_env_value(var("int"), "x" * 500)
    assert problem is not None and len(problem) < 100 and "..." in problem


def test_messages_are_lowercase_apart_from_quotes_and_uri() -> None:
    v = var("choices", choices=["a"])
    for problem in (
        check_env_value(var("int"), "Q"),
        check_env_value(var("bool_int"), "Q"),
        check_env_value(var("float"), "Q"),
        check_env_value(v, "Q"),
    ):
        assert problem is not None
        assert problem.replace("'Q'", "") == problem.replace("'Q'", "").lower()


# ----------------------------------------------------------------------------- oracle

PROBES = [
    "1", "0", "true", "False", "yes", "abc", "", " 7 ", "-3", "1.5", "1e3",
    "tcp://10.0.0.1:5000", "{}", "[1]", "{bad",
]  # fmt: skip


def _probes_for(v: EnvVar) -> list[str]:
    out = list(PROBES)
    for c in v.choices or []:
        out += [c, c.upper(), c.lower(), c.capitalize()]
    if v.parse == "set_choices" and v.choices:
        out += [",".join(v.choices), f"{v.choices[0]},nope", f" {v.choices[-1]} ,"]
    return list(dict.fromkeys(out))


def _compare(envs: list[EnvVar], envs_py: Path, version: str = "") -> tuple[int, int, list[str]]:
    """(probes compared, probes skipped, disagreements) for ``envs_py`` of ``version``
    (the synthetic idioms: none, the newest behaviour)."""
    oracle = run_envs_oracle(envs_py, {v.name: _probes_for(v) for v in envs})["probes"]
    # whether vLLM's own message for a URI port says so (the knowledge pack's behaviour)
    uri_message = version_tuple(version) >= since("vllm-port-uri-message")
    compared = skipped = 0
    bad: list[str] = []
    for v in envs:
        for value, result in oracle[v.name].items():
            if environment_error(result):
                skipped += 1
                continue
            compared += 1
            mine: Optional[str] = check_env_value(v, value)
            raised = "error" in result
            if raised != (mine is not None):
                bad.append(f"{v.name}={value!r}: vllm {result} vcfg {mine!r}")
            elif v.parse == "port" and raised and uri_message:
                if ("URI" in result["message"]) != ("URI" in (mine or "")):
                    bad.append(f"{v.name}={value!r}: URI message {result} vcfg {mine!r}")
            elif v.parse == "bool_word" and not raised and v.truthy is not None:
                expect = (value if v.case_sensitive else value.lower()) in v.truthy
                if result["ok"] is not expect:
                    bad.append(f"{v.name}={value!r}: vllm reads {result['ok']}")
    return compared, skipped, bad


def test_synthetic_idioms_agree_with_executing_them() -> None:
    envs = [
        v for v in extract_env_vars_from_text(IDIOMS.read_text()) if v.name != "T_NOT_UNDERSTOOD"
    ]  # that one calls a function that does not exist: it always raises NameError
    compared, skipped, bad = _compare(envs, IDIOMS)
    assert bad == []
    assert compared > 700


@pytest.mark.slow
@pytest.mark.parametrize("version", RELEASES)
def test_check_env_value_agrees_with_vllm(version: str) -> None:
    from vcfg.catalog.extract.source import from_version

    src = from_version(version)
    assert src.root is not None
    envs = extract_env_vars(src)
    compared, skipped, bad = _compare(envs, src.root / "vllm" / "envs.py", version)
    assert bad == []
    # only callables that need vllm/torch/pybase64/urllib3 are skipped
    assert skipped <= 12 * len(PROBES)
    assert compared > 10 * len(envs)


#: the default run shows the property; .ci/run's fuzz stage runs 2,000 examples
@settings(max_examples=int(os.environ.get("VCFG_FUZZ_EXAMPLES", "100")), deadline=None)
@given(
    st.sampled_from(
        ["int", "float", "bool_int", "bool_word", "str", "list", "choices", "set_choices", "json", "port", "other"]
    ),
    st.text(),
    st.booleans(),
)
def test_any_text_gives_a_message_or_none(parse: str, value: str, case_sensitive: bool) -> None:
    v = var(parse, choices=["a", "B"], case_sensitive=case_sensitive)
    problem = check_env_value(v, value)
    assert problem is None or (isinstance(problem, str) and 0 < len(problem) < 200)
