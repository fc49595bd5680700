"""The words after an unknown option: as many as the option it most likely is takes.

argparse gives the arguments after an option it does not know to the positional (the
model) and the extras; vcfg reads them as that option's values, because that is what
the user wrote them as, but only as many as the option takes: the one a bundled release
registered under that name (a removed option), else the release's nearest option (a
typo).  A removed switch before the model left the model unseen, and VC002's safe fix
removed the model with the switch (`--disable-log-requests` was a store_true option up
to 0.16.x; 0.17.0-0.32.x lack it).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from vcfg.catalog.history import load_index
from vcfg.catalog.store import load_exact
from vcfg.cli.commands import main
from vcfg.cli.lint import run
from vcfg.lint.engine import lint_paths


def parsed(path, version):
    r = CliRunner().invoke(main, ["launch", "show", "--vllm-version", version, "--format", "json", str(path)])
    assert r.exit_code == 0, r.output
    return [inv["parsed"] for inv in json.loads(r.output)["invocations"]]


def model_of(p):
    return p["model"]["value"] if p["model"] else None


def test_the_facts_the_cases_rest_on():
    index = load_index()
    mask = index["flag"]["--disable-log-requests"]
    last = index["versions"][mask.rfind("1")]
    # the newest release with the name registers it as a switch (0.33.0's
    # --enable-/--disable-log-requests pair), as the last before its removal did
    assert load_exact(last).flag("--disable-log-requests").action == "enable_disable"
    assert load_exact("0.16.0").flag("--disable-log-requests").action in ("store_true", "boolean_optional")
    assert load_exact("0.20.0").flag("--disable-log-requests") is None
    assert load_exact("0.20.0").flag("--enforce-eager").action in ("store_true", "boolean_optional")
    assert load_exact("0.20.0").flag("--max-model-len").nargs is None
    assert "--max-modle-len" not in index["flag"] and "--enforce-eagre" not in index["flag"]


@pytest.mark.parametrize(
    ("option", "values"),
    [
        ("--disable-log-requests", []),  # removed in 0.17.0: a store_true option
        ("--enforce-eagre", []),  # a typo of a switch
        ("--max-modle-len 4096", ["4096"]),  # a typo of an option taking one value
    ],
)
def test_the_model_after_an_unknown_option_is_the_model(tmp_path, option, values):
    p = tmp_path / "serve.sh"
    p.write_text(f"#!/bin/bash\nvllm serve {option} Qwen/Qwen3-8B --tensor-parallel-size 2\n")
    (got,) = parsed(p, "0.20.0")
    assert model_of(got) == "Qwen/Qwen3-8B"
    assert got["options"]["tensor_parallel_size"]["value"] == 2
    (unknown,) = got["unknown_options"]
    value = unknown["value"]
    assert (value if isinstance(value, list) else [value]) == values


def test_an_option_vcfg_cannot_place_keeps_every_word_after_it(tmp_path):
    # neither a bundled release's name nor near one: the words are its values, as before
    p = tmp_path / "serve.sh"
    p.write_text("#!/bin/bash\nvllm serve Qwen/Qwen3-8B --zzqx-frobnicate a b --port 8000\n")
    (got,) = parsed(p, "0.20.0")
    assert model_of(got) == "Qwen/Qwen3-8B"
    assert got["unknown_options"][0]["value"] == ["a", "b"]
    assert got["options"]["port"]["value"] == 8000


def test_removing_a_removed_switch_keeps_the_model(tmp_path, capsys):
    p = tmp_path / "serve.sh"
    p.write_text("#!/bin/bash\nvllm serve --disable-log-requests facebook/opt-125m --port 8000\n")
    res = lint_paths([str(p)], "0.20.0")
    assert [d.code for d in res.diagnostics] == ["VC002"]
    assert run(["--vllm-version", "0.20.0", "--diff", str(p)]) == 1
    out = capsys.readouterr().out
    assert "+vllm serve facebook/opt-125m --port 8000\n" in out
    assert run(["--vllm-version", "0.20.0", "--fix", str(p)]) == 0
    assert p.read_text() == "#!/bin/bash\nvllm serve facebook/opt-125m --port 8000\n"
