"""The 0.33.0 schemas against vLLM 0.33.0's real parser, on 40+ written cases.

A ``vllm serve --config`` YAML (or a ``--kv-transfer-config`` argument) that the real
parser accepts must be accepted by the schema; one it rejects at parse time must be
rejected.  Both schemas are compared case by case (the default one rejects an unknown
key too, as vLLM does).  The few places where the schema
answers differently on purpose are listed in KNOWN, with the reason, and the test
fails if one of them starts to agree (so the list stays exact).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from vcfg.catalog import store
from vcfg.schema.build import SchemaOptions, build_schema
from vcfg.schema.context import load_knowledge
from vcfg.schema.history import History

HERE = Path(__file__).parent
ORACLE = HERE / "schema_oracle_parse.py"
M = {"model": "Qwen/Qwen3-8B"}
KV = {"kv_connector": "NixlConnector", "kv_role": "kv_both"}

# name -> YAML mapping (with a model), ("cli-model", mapping): the model on the command
# line (`vllm serve MODEL --config f.yaml`), or ("argv", kv-transfer-config JSON text)
CASES: dict[str, Any] = {
    # likely accepted
    "plain": {**M, "max-num-seqs": 8, "gpu-memory-utilization": 0.9},
    "underscores": {**M, "max_num_seqs": 8, "tensor_parallel_size": 2},
    "kv-mapping": {**M, "kv-transfer-config": KV},
    "kv-json-text": {**M, "kv-transfer-config": json.dumps(KV)},
    "switch-true": {**M, "enable-prefix-caching": True},
    "switch-false-dropped": {**M, "enable-prefix-caching": False},
    "switch-no-form": {**M, "no-enable-prefix-caching": True},
    "switch-disable-form": {**M, "disable-prefix-caching": True},
    "list-option": {**M, "served-model-name": ["qwen", "qwen3"]},
    "list-option-one-value": {**M, "served-model-name": "qwen"},
    "human-int": {**M, "max-model-len": "32k", "max-num-batched-tokens": "8K"},
    "human-int-auto": {**M, "max-model-len": "auto"},
    "choice": {**M, "dtype": "bfloat16"},
    "suggested-value": {**M, "kv-cache-dtype": "fp8"},
    "compilation-mapping": {**M, "compilation-config": {"cudagraph_capture_sizes": [1, 2, 4]}},
    "quoted-int": {**M, "port": "8000"},
    "long-alias": {**M, "device-memory-utilization": 0.8},
    "optional-value-bare": {**M, "hf-token": True},
    "lower-underscore-any-case": {**M, "moe-backend": "Triton"},
    "kv-port-as-text": {**M, "kv-transfer-config": {**KV, "kv_port": "21001"}},
    "kv-module-path": {
        **M,
        "kv-transfer-config": {
            "kv_connector": "MyConnector",
            "kv_role": "kv_both",
            "kv_connector_module_path": "my.connectors",
        },
    },
    "speculative-mapping": {
        **M,
        "speculative-config": {"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4},
    },
    "speculative-null": {**M, "speculative-config": None},
    "json-list-as-text": {**M, "allowed-origins": '["*"]'},
    "zero-tp-parses": {**M, "tensor-parallel-size": 0},
    "big-port-parses": {**M, "port": 99999},
    "kv-extra-config": {**M, "kv-transfer-config": {**KV, "kv_connector_extra_config": {"num_threads": 8}}},
    "argv-kv": ("argv", json.dumps(KV)),
    "argv-kv-extra-config-bad-value": (
        "argv",
        json.dumps({**KV, "kv_connector_extra_config": {"kv_recompute_threshold": "eight"}}),
    ),
    "kv-bool-as-text": {**M, "kv-transfer-config": {**KV, "enable_permute_local_kv": "yes"}},
    # likely rejected
    "unknown-key": {**M, "max-num-seqz": 5},
    "bad-choice": {**M, "dtype": "bfloat17"},
    "choice-wrong-case": {**M, "dtype": "BFloat16"},
    "bad-kv-role": {**M, "kv-transfer-config": {**KV, "kv_role": "producer"}},
    "removed-kv-field": {**M, "kv-transfer-config": {**KV, "kv_buffer_size": "1e9"}},
    "typo-kv-field": {**M, "kv-transfer-config": {**KV, "kv_conector": "x"}},
    "int-text": {**M, "max-num-seqs": "abc"},
    "int-fraction": {**M, "max-num-seqs": 1.5},
    "int-true": {**M, "max-num-seqs": True},
    "int-list": {**M, "max-num-seqs": [1, 2]},
    "int-list-model-on-cli": ("cli-model", {"max-num-seqs": [1, 2]}),
    "switch-with-text": {**M, "enable-prefix-caching": "yes"},
    "switch-with-text-model-on-cli": ("cli-model", {"enable-prefix-caching": "yes"}),
    "unknown-key-model-on-cli": ("cli-model", {"max-num-seqz": 5}),
    "human-int-binary-fraction": {**M, "max-model-len": "1.5K"},
    "kv-not-json": {**M, "kv-transfer-config": "not json"},
    "kv-broken-json": {**M, "kv-transfer-config": '{"kv_connector": NixlConnector}'},
    "kv-none-text": {**M, "kv-transfer-config": "None"},
    "kv-port-text": {**M, "kv-transfer-config": {**KV, "kv_port": "abc"}},
    "kv-without-role": {**M, "kv-transfer-config": {"kv_connector": "NixlConnector"}},
    "compilation-unknown-key": {**M, "compilation-config": {"bogus_key": 1}},
    "json-list-as-yaml-list": {**M, "allowed-origins": ["*"]},
    "float-text": {**M, "gpu-memory-utilization": "high"},
    "argv-kv-port-suffix": ("argv", json.dumps({**KV, "kv_port": "1k"})),
    "argv-kv-typo": ("argv", json.dumps({**KV, "kv_conector": "x"})),
}

#: Cases where the schema answers unlike the parser, on purpose.  name -> reason.
KNOWN = {
    "kv-broken-json": "JSON inside a string is not parsed by a schema (only its braces are checked)",
    "int-list": "with the model in the file, the second value lands in the positional model slot "
    "and vLLM parses it; with the model on the command line it is an error",
    "switch-with-text": "the same: 'yes' becomes the positional model",
    "argv-kv-extra-config-bad-value": "kv_connector_extra_config is a free dict to the parser; the schema checks the "
    "connector's keys now, which vLLM only does when it builds the connector",
    "kv-bool-as-text": "pydantic reads 'yes' as true; the schema asks for a JSON boolean",
    "switch-false-dropped": "vLLM's loader drops `false`, so prefix caching stays on: the strict schema rejects "
    "it where lint warns (VC011); the default schema accepts it, as the parser does",
    "zero-tp-parses": "the parser takes 0; ParallelConfig's Field(ge=1) rejects it when the engine "
    "config is built, before the model loads: the schema holds the bound now",
}

#: Cases vLLM rejects only because a key is unknown: both schemas reject them too (the
#: default schema let them pass before issue 17).
UNKNOWN_KEY_ONLY: set[str] = set()


def _oracle_cases() -> list[dict[str, Any]]:
    out = []
    for name, case in CASES.items():
        if isinstance(case, tuple) and case[0] == "argv":
            out.append({"name": name, "argv": ["serve", "Qwen/Qwen3-8B", "--kv-transfer-config", case[1]]})
        elif isinstance(case, tuple):
            out.append({"name": name, "yaml": yaml.safe_dump(case[1], sort_keys=False), "model": "Qwen/Qwen3-8B"})
        else:
            out.append({"name": name, "yaml": yaml.safe_dump(case, sort_keys=False)})
    return out


def _instance(name: str) -> tuple[str, Any]:
    """(schema kind, the value the schema judges), read back as vLLM reads it."""
    case = CASES[name]
    if isinstance(case, tuple) and case[0] == "argv":
        return "kv-transfer-config", json.loads(case[1])
    mapping = case[1] if isinstance(case, tuple) else case
    return "serve", yaml.safe_load(yaml.safe_dump(mapping, sort_keys=False))


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    from test_fidelity import _clean_env, build_oracle_venv

    python = build_oracle_venv()
    f = tmp_path_factory.mktemp("schema-oracle") / "cases.json"
    f.write_text(json.dumps(_oracle_cases()))
    proc = subprocess.run(
        [str(python), str(ORACLE), str(f)],
        capture_output=True,
        text=True,
        timeout=600,
        env=_clean_env(VLLM_TARGET_DEVICE="cpu"),
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _schemas() -> dict[tuple[str, bool], Any]:
    cats = {v: store.load_exact(v) for v in store.bundled_versions()}
    h = History.of(cats.values())
    know = load_knowledge()
    out = {}
    for kind in ("serve", "kv-transfer-config"):
        for strict in (False, True):
            s = build_schema(cats["0.33.0"], kind, SchemaOptions(strict=strict), history=h, knowledge=know)
            out[(kind, strict)] = jsonschema.Draft7Validator(s)
    return out


@pytest.mark.slow
def test_schema_agrees_with_the_real_parser(verdicts: dict[str, dict[str, Any]]) -> None:
    assert len(CASES) >= 30
    accepted = [n for n, v in verdicts.items() if v["ok"]]
    rejected = [n for n, v in verdicts.items() if not v["ok"]]
    assert len(accepted) >= 15 and len(rejected) >= 15, verdicts  # the oracle really judged
    schemas = _schemas()
    wrong: list[str] = []
    for name in CASES:
        kind, inst = _instance(name)
        parser_ok = verdicts[name]["ok"]
        strict_ok = schemas[(kind, True)].is_valid(inst)
        lenient_ok = schemas[(kind, False)].is_valid(inst)
        if name in KNOWN:
            if strict_ok == parser_ok:
                wrong.append(f"{name}: now agrees with the parser; remove it from KNOWN")
            continue
        if strict_ok != parser_ok:
            wrong.append(
                f"{name}: parser {'accepts' if parser_ok else 'rejects'} "
                f"({verdicts[name]['error']}), strict schema does not"
            )
        expect_lenient = parser_ok or name in UNKNOWN_KEY_ONLY
        if lenient_ok != expect_lenient:
            wrong.append(f"{name}: lenient schema {'accepts' if lenient_ok else 'rejects'}")
    assert wrong == [], "\n".join(wrong)
