"""The launches of the engine-parity differential test (tests/test_parity_differential.py).

``generate(catalog, models)`` returns a list of `Case`: the words after ``vllm serve``
(the model first) and the environment, for one release.  Most come from the release's
catalog, so every release gets cases for its own flags and config keys:

- per flag: a valid value (its default, a choice, the bounds of its config field),
  a value of the wrong type, a value just outside its config field's bounds, a
  misspelt choice, a misspelt flag name and an abbreviation;
- per key of a JSON-valued flag (``--kv-transfer-config``, ``--speculative-config``,
  ``--compilation-config``, ...): the key at a valid value, at the wrong type, outside
  its bounds, a misspelt choice, a misspelt key;
- by hand: cross-field contradictions, environment variables, model-dependent
  launches (a quantized and an MoE model), and the examples of issue #16 (``example``
  names them; the test asserts both sides refuse each).

The verdicts are vLLM's own (tests/oracle/parity_driver.py): nothing here says what
the answer should be.  The catalog is used only to enumerate what to try.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Optional

from vcfg.catalog.model import Catalog, ConfigClass, ConfigField, Flag

#: flags the generator leaves alone: they name files, sockets or processes (a value
#: would need a real file or would change what the driver starts), or they are the
#: model itself
SKIP_FLAGS = {
    "-h",
    "--config",
    "--model",
    "--headless",
    "--grpc",
    "--api-server-count",
    "--data-parallel-multi-port-external-lb",
    "--tokenizer",
    "--hf-config-path",
    "--download-dir",
    "--chat-template",
    "--ssl-keyfile",
    "--ssl-certfile",
    "--ssl-ca-certs",
    "--uds",
    "--lora-modules",
    "--middleware",
    "--tool-server",
    "--log-config-file",
    "--allowed-local-media-path",
    "--mm-encoder-fp8-scale-path",
    "--mm-encoder-fp8-scale-save-path",
    "--hf-token",
    "--tool-parser-plugin",
    "--reasoning-parser-plugin",
    "--worker-cls",
    "--worker-extension-cls",
    "--scheduler-cls",
    "--logits-processors",
    "--io-processor-plugin",
    "--otlp-traces-endpoint",
    "--revision",
    "--code-revision",
    "--tokenizer-revision",
    "--device-ids",
    "--numa-bind-cpus",
    "--numa-bind-nodes",
    "--model-loader-extra-config",
    "--pt-load-map-location",
    "--generation-config",
    "--load-format",
}

#: the JSON object a key is added to, per config class, so that only that key varies
JSON_BASE: dict[str, dict[str, Any]] = {
    "KVTransferConfig": {"kv_connector": "NixlConnector", "kv_role": "kv_both"},
    "SpeculativeConfig": {"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4},
}

#: JSON-valued flags whose keys are varied, by dest (the config class comes from the
#: catalog)
JSON_FLAGS = (
    "kv_transfer_config",
    "speculative_config",
    "compilation_config",
    "attention_config",
    "structured_outputs_config",
    "kv_events_config",
    "eplb_config",
    "profiler_config",
    "kernel_config",
    "watermark_config",
    "ec_transfer_config",
    "observability_config",
    "scheduler_config",
)


@dataclass(frozen=True)
class Case:
    id: str
    kind: str  # valid, wrong-type, out-of-range, wrong-choice, misspelt-name, ...
    subject: str  # the flag, key or variable varied
    argv: tuple[str, ...]  # after "vllm serve", the model first
    env: tuple[tuple[str, str], ...] = ()
    example: Optional[str] = None  # an example of issue #16
    #: a ``--config`` YAML file the launch reads: (file name, text); the argv names it
    #: as ``{config}``, which `materialise` replaces with its path
    config: Optional[str] = None

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "argv": list(self.argv), "env": dict(self.env)}


def materialise(cases: list[Case], root: Path) -> list[Case]:
    """Write each case's ``--config`` file under ``root`` and put its path in the argv."""
    import dataclasses

    out = []
    root.mkdir(parents=True, exist_ok=True)
    for c in cases:
        if c.config is None:
            out.append(c)
            continue
        p = root / f"config-{c.id}.yaml"
        p.write_text(c.config, encoding="utf-8")
        out.append(dataclasses.replace(c, argv=tuple(str(p) if a == "{config}" else a for a in c.argv)))
    return out


# --------------------------------------------------------------------------- models

DENSE = {
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "hidden_size": 256,
    "intermediate_size": 512,
    "num_attention_heads": 8,
    "num_key_value_heads": 4,
    "num_hidden_layers": 4,
    "vocab_size": 32000,
    "max_position_embeddings": 8192,
    "rms_norm_eps": 1e-5,
    "torch_dtype": "bfloat16",
    "hidden_act": "silu",
    "rope_theta": 10000.0,
    "tie_word_embeddings": False,
    "bos_token_id": 1,
    "eos_token_id": 2,
}
QUANT = {
    **DENSE,
    "quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False, "sym": True},
    "torch_dtype": "float16",
}
MOE = {
    "architectures": ["MixtralForCausalLM"],
    "model_type": "mixtral",
    "hidden_size": 256,
    "intermediate_size": 512,
    "num_attention_heads": 8,
    "num_key_value_heads": 4,
    "num_hidden_layers": 4,
    "vocab_size": 32000,
    "max_position_embeddings": 4096,
    "rms_norm_eps": 1e-5,
    "torch_dtype": "bfloat16",
    "hidden_act": "silu",
    "num_local_experts": 4,
    "num_experts_per_tok": 2,
    "rope_theta": 1e6,
    "tie_word_embeddings": False,
    "sliding_window": None,
}


def write_models(root: Path) -> dict[str, str]:
    """The three model folders (a config.json each), by kind."""
    out = {}
    for name, cfg in (("dense", DENSE), ("quant", QUANT), ("moe", MOE)):
        d = root / f"tiny-{name}"
        d.mkdir(parents=True, exist_ok=True)
        (d / "config.json").write_text(json.dumps(cfg, indent=1), encoding="utf-8")
        out[name] = str(d)
    return out


# --------------------------------------------------------------------------- helpers


def misspell(name: str) -> str:
    """A typo that is no prefix of the name: two inner letters swapped (or one doubled)."""
    core = name.lstrip("-")
    lead = name[: len(name) - len(core)]
    for i in range(len(core) // 2, len(core) - 1):
        a, b = core[i], core[i + 1]
        if a != b and a.isalpha() and b.isalpha():
            return lead + core[:i] + b + a + core[i + 2 :]
    return lead + core[:-1] + core[-1] * 2 + "x"


def _json_default(v: Any) -> bool:
    if v is None or isinstance(v, (bool, int, float, str)):
        return True
    if isinstance(v, list):
        return all(_json_default(x) for x in v)
    if isinstance(v, dict):
        return all(isinstance(k, str) and _json_default(x) for k, x in v.items()) and (
            "$dynamic" not in v and "$config" not in v and "$repr" not in v
        )
    return False


def _num_kind(t: str) -> Optional[str]:
    """'int' or 'float' for a field annotation or flag type that is one, else None."""
    parts = {p.strip() for p in t.replace("Optional[", "").rstrip("]").split("|")}
    parts.discard("None")
    if parts in ({"int"}, {"PositiveInt"}, {"NonNegativeInt"}):
        return "int"
    if parts in ({"float"}, {"PositiveFloat"}, {"NonNegativeFloat"}, {"float", "int"}):
        return "float"
    return None


def _outside(c: Any, kind: str) -> list[Any]:
    """Values just outside a Field constraint, and the bound itself when it is allowed."""
    out: list[Any] = []
    step = 1 if kind == "int" else 0.5
    if c.ge is not None:
        out += [("out", c.ge - step), ("valid", c.ge)]
    if c.gt is not None:
        out += [("out", c.gt), ("valid", c.gt + step)]
    if c.le is not None:
        out += [("out", c.le + step), ("valid", c.le)]
    if c.lt is not None:
        out += [("out", c.lt)]
    return [(k, int(v) if kind == "int" else float(v)) for k, v in out]


def _text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v)) if abs(v) < 1e15 else str(v)
    return str(v)


# --------------------------------------------------------------------------- per flag


def _flag_cases(flag: Flag, field_: Optional[ConfigField], model: str) -> list[tuple[str, list[str]]]:
    name = flag.option_strings[0]
    long_names = [s for s in flag.option_strings if s.startswith("--")]
    name = long_names[0] if long_names else name
    out: list[tuple[str, list[str]]] = []
    if flag.action in ("store_true", "store_false"):
        out.append(("valid", [name]))
        out.append(("wrong-type", [name + "=true"]))
        out.append(("misspelt-name", [misspell(name)]))
        out.append(("wrong-type", [name, "maybe"]))
        return out
    if flag.action == "enable_disable":
        out.append(("valid", [name]))
        out.append(("wrong-type", [name + "=true"]))
        neg = "--no-" + name[2:]
        if neg in flag.option_strings:
            out.append(("valid", [neg]))
        out.append(("misspelt-name", [misspell(name)]))
        return out
    if flag.action not in ("store", "append", "custom"):
        return out
    choices = [c for c in (flag.choices or []) if c is not None]
    value: Optional[str] = None
    if choices:
        for c in choices[:8]:
            out.append(("valid", [name, str(c)]))
        out.append(
            ("wrong-choice", [name, misspell(str(choices[0])) if len(str(choices[0])) > 2 else str(choices[0]) + "zz"])
        )
        value = str(choices[0])
    kind = _num_kind(flag.type or "") or ("int" if (flag.type or "").startswith("human_readable_int") else None)
    if kind:
        d = flag.default
        if isinstance(d, (int, float)) and not isinstance(d, bool):
            out.append(("valid", [name, _text(d)]))
            value = value or _text(d)
        out.append(("wrong-type", [name, "abc"]))
        out.append(("wrong-type", [f"{name}=x1"]))
        out.append(("out-of-range", [name, "-5"]))
        one = "1" if kind == "int" else "0.5"
        if _text(flag.default) != one:
            out.append(("valid", [name, one]))
        if kind == "int" and not (flag.type or "").startswith("human_readable"):
            out.append(("wrong-type", [name, "2.5"]))
        c = field_.constraint if field_ is not None else None
        if c is not None:
            for k, v in _outside(c, kind):
                out.append(("out-of-range" if k == "out" else "valid", [name, _text(v)]))
                value = value or (_text(v) if k == "valid" else None)
    if (flag.type or "") in ("bool",):
        out.append(("valid", [name, "true"]))
        out.append(("wrong-type", [name, "maybe"]))
    if value is not None:
        out.append(("misspelt-name", [misspell(name), value]))
        core = name[2:]
        if len(core) > 8:
            out.append(("abbreviation", ["--" + core[:-2], value]))
    return out


# --------------------------------------------------------------------------- per JSON key


def _json_cases(
    flag: Flag,
    cls: ConfigClass,
    classes: Optional[dict[str, ConfigClass]] = None,
    inside: Optional[str] = None,
    flag_class: str = "",
) -> list[tuple[str, str, list[str]]]:
    """Cases for each key of ``cls``; ``inside``: the key of the outer object that holds
    it (a nested config class such as CompilationConfig.pass_config)."""
    name = next(s for s in flag.option_strings if s.startswith("--"))
    base = dict(JSON_BASE.get(cls.name, {})) if inside is None else {}
    out: list[tuple[str, str, list[str]]] = []

    outer = dict(JSON_BASE.get(flag_class, {})) if inside is not None else {}

    def wrap(obj: dict[str, Any]) -> str:
        return json.dumps(obj if inside is None else {**outer, inside: obj}, separators=(",", ":"))

    def with_(key: str, value: Any) -> list[str]:
        return [name, wrap({**base, key: value})]

    if inside is None and classes:
        # a nested config class a user writes (CompilationConfig.pass_config), not the
        # engine's own wiring (SpeculativeConfig.target_model_config: a ModelConfig)
        wiring = {c.name for c in classes.values() if c.name.endswith(("ModelConfig", "ParallelConfig", "LoadConfig"))}
        for f in cls.fields:
            sub = classes.get(f.nested or "")
            if f.init and sub is not None and sub.name not in wiring and all(h in (f.nested, "None") for h in f.hints):
                out += [(k, f"{f.name}.{key}", argv) for k, key, argv in _json_cases(flag, sub, None, f.name, cls.name)]

    out.append(("valid", "{}", [name, wrap(base)]))
    prefix = name if inside is None else f"{name}.{inside}"
    dotted_base = [a for k, v in base.items() for a in (f"{prefix}.{k}", _text(v))]

    def dotted(key: str, value: Any) -> list[str]:
        text = value if isinstance(value, str) else json.dumps(value)
        return [*dotted_base, f"{prefix}.{key}", text]

    for f in cls.fields:
        if not f.init or f.name.startswith("_") or f.nested:
            continue
        key = f.name
        if f.default is not None and _json_default(f.default) and key not in base:
            out.append(("valid", key, with_(key, f.default)))
            if isinstance(f.default, (int, float, str)) and f.default != "":
                out.append(("valid", f"{key} (dotted)", dotted(key, f.default)))
        kind = _num_kind(f.type)
        if kind:
            out.append(("wrong-type", key, with_(key, "abc")))
            out.append(("wrong-type", f"{key} (dotted)", dotted(key, "abc")))
            if f.constraint is not None:
                for k, v in _outside(f.constraint, kind):
                    out.append(("out-of-range" if k == "out" else "valid", key, with_(key, v)))
        elif f.type in ("bool", "bool | None"):
            out.append(("wrong-type", key, with_(key, "maybe")))
        elif f.type in ("str", "str | None"):
            out.append(("wrong-type", key, with_(key, 12)))
        choices = [c for c in (f.choices or []) if isinstance(c, str)]
        if choices:
            out.append(("valid", key, with_(key, choices[-1])))
            out.append(("wrong-choice", key, with_(key, misspell(choices[0]))))
        out.append(
            ("misspelt-name", key, [name, wrap({**base, misspell(key): f.default if _json_default(f.default) else 1})])
        )
    return out


# --------------------------------------------------------------------------- by hand


SPEC = '{"method":"ngram","num_speculative_tokens":3,"prompt_lookup_max":4}'
KV = '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'


class Hand(NamedTuple):
    """A launch written by hand: the words after the model, the environment, the
    example of issue #16 it is (the test asserts both sides refuse it) and the model
    folder it runs on (`write_models`: dense, quant or moe)."""

    kind: str
    subject: str
    argv: tuple[str, ...]
    env: Optional[dict[str, str]] = None
    example: Optional[str] = None
    model: str = "dense"


# one launch a line
# fmt: off
BY_HAND: tuple[Hand, ...] = (
    # the examples
    Hand("wrong-choice", "--kv-cache-dtype", ("--kv-cache-dtype", "fp4"), example="kv-cache-dtype fp4"),
    Hand("cross-field", "--kv-cache-dtype", ("--kv-cache-dtype", "float16"), example="kv-cache-dtype float16 on bf16"),
    Hand("wrong-choice", "--quantization", ("--quantization", "gptq4"), example="quantization gptq4"),
    Hand("wrong-choice", "--attention-backend", ("--attention-backend", "FLASH"), example="attention-backend FLASH"),
    Hand("wrong-choice", "--reasoning-parser", ("--reasoning-parser", "deepseek-r2"), example="reasoning-parser deepseek-r2"),
    Hand("wrong-choice", "--tool-call-parser", ("--enable-auto-tool-choice", "--tool-call-parser", "hermess"), example="tool-call-parser hermess"),
    Hand("out-of-range", "--max-model-len", ("--max-model-len", "0"), example="max-model-len 0"),
    Hand("wrong-choice", "speculative.method", ("--speculative-config", '{"method":"ngramm","num_speculative_tokens":3}'), example="speculative method ngramm"),
    Hand("wrong-type", "speculative.num_speculative_tokens", ("--speculative-config", '{"method":"ngram","num_speculative_tokens":"three"}'), example="num_speculative_tokens three"),
    Hand("out-of-range", "speculative.num_speculative_tokens", ("--speculative-config", '{"method":"ngram","num_speculative_tokens":-1}'), example="num_speculative_tokens -1"),
    Hand("misspelt-name", "speculative.num_speculative_token", ("--speculative-config", '{"method":"ngram","num_speculative_token":3}'), example="num_speculative_token"),
    Hand("wrong-type", "--compilation-config", ("--compilation-config", "3"), example="compilation-config 3"),
    Hand("wrong-choice", "compilation.mode", ("--compilation-config", '{"mode":7}'), example="compilation mode 7"),
    Hand("wrong-choice", "compilation.cudagraph_mode", ("--compilation-config", '{"cudagraph_mode":"FULLL"}'), example="cudagraph_mode FULLL"),
    Hand("wrong-type", "--hf-overrides", ("--hf-overrides", '{"max_position_embeddings":'), example="hf-overrides broken JSON"),
    Hand("cross-field", "--max-num-batched-tokens", ("--max-num-batched-tokens", "4096", "--no-enable-chunked-prefill"), example="batched tokens below model len"),
    Hand("cross-field", "--long-prefill-token-threshold", ("--max-model-len", "4096", "--long-prefill-token-threshold", "8192"), example="long prefill above max-model-len"),
    Hand("cross-field", "-dcp", ("-dcp", "4", "-tp", "2"), example="dcp 4 tp 2"),
    Hand("cross-field", "--enable-log-outputs", ("--enable-log-outputs",), example="log outputs without log requests"),
    Hand("cross-field", "--enable-auto-tool-choice", ("--enable-auto-tool-choice",), example="auto tool choice without parser"),
    Hand("cross-field", "--quantization", ("--quantization", "awq"), example="awq on unquantized"),
    Hand("cross-field", "speculative.method", ("--speculative-config", '{"method":"mtp","num_speculative_tokens":1}'), example="mtp on dense"),
    Hand("cross-field", "--kv-transfer-config.kv_port", ("--kv-transfer-config", KV, "--kv-transfer-config.kv_port", "5601"), example="dotted after JSON"),
    Hand("env", "VLLM_LOGGING_LEVEL", (), {"VLLM_LOGGING_LEVEL": "LOUD"}, example="VLLM_LOGGING_LEVEL LOUD"),
    Hand("env", "VLLM_*", ("--fail-on-environ-validation",), {"VLLM_NOT_A_VARIABLE": "1"}, example="unknown VLLM_* with fail-on-environ-validation"),
    # valid and near-valid neighbours of the examples
    Hand("valid", "--kv-cache-dtype", ("--kv-cache-dtype", "bfloat16")),
    Hand("valid", "--kv-cache-dtype", ("--kv-cache-dtype", "fp8")),
    Hand("valid", "--quantization", ("--quantization", "gptq"), model="quant"),
    Hand("cross-field", "--quantization", ("--quantization", "fp8"), model="quant"),
    Hand("valid", "--quantization", ("--quantization", "fp8")),
    Hand("valid", "--attention-backend", ("--attention-backend", "CPU_ATTN")),
    Hand("valid", "--reasoning-parser", ("--reasoning-parser", "deepseek_r1")),
    Hand("valid", "--tool-call-parser", ("--enable-auto-tool-choice", "--tool-call-parser", "hermes")),
    Hand("valid", "--tool-call-parser", ("--tool-call-parser", "hermes")),
    Hand("valid", "--enable-log-outputs", ("--enable-log-outputs", "--enable-log-requests")),
    Hand("valid", "-dcp", ("-dcp", "2", "-tp", "8")),
    Hand("valid", "--max-num-batched-tokens", ("--max-num-batched-tokens", "8192", "--no-enable-chunked-prefill")),
    Hand("valid", "--max-num-batched-tokens", ("--max-num-batched-tokens", "4096", "--max-model-len", "4096", "--no-enable-chunked-prefill")),
    Hand("valid", "--long-prefill-token-threshold", ("--max-model-len", "4096", "--long-prefill-token-threshold", "2048")),
    Hand("valid", "--compilation-config", ("--compilation-config", '{"mode":3}')),
    Hand("valid", "--compilation-config", ("--compilation-config", '{"mode":"VLLM_COMPILE"}')),
    Hand("wrong-choice", "compilation.mode", ("--compilation-config", '{"mode":"VLLM_COMPILED"}')),
    Hand("valid", "--compilation-config", ("--compilation-config", '{"cudagraph_mode":"FULL_AND_PIECEWISE"}')),
    Hand("valid", "--compilation-config", ("--compilation-config", '{"cudagraph_mode":"full"}')),
    Hand("valid", "--compilation-config", ("--compilation-config", '{"cudagraph_mode":"NONE"}')),
    Hand("wrong-choice", "compilation.cudagraph_mode", ("--compilation-config", '{"cudagraph_mode":2}')),
    Hand("valid", "-O", ("-O3",)),
    Hand("valid", "-O", ("-O0",)),
    Hand("wrong-choice", "-O", ("-O7",)),
    Hand("valid", "--compilation-config.mode", ("--compilation-config.mode", "3")),
    Hand("wrong-choice", "--compilation-config.mode", ("--compilation-config.mode", "9")),
    Hand("valid", "--compilation-config.cudagraph_mode", ("--compilation-config.cudagraph_mode", "PIECEWISE")),
    Hand("wrong-choice", "--compilation-config.cudagraph_mode", ("--compilation-config.cudagraph_mode", "PIECEWIS")),
    Hand("valid", "--hf-overrides", ("--hf-overrides", '{"max_position_embeddings":4096}')),
    Hand("wrong-type", "--hf-overrides", ("--hf-overrides", "3")),
    Hand("valid", "--speculative-config", ("--speculative-config", SPEC)),
    Hand("valid", "--kv-transfer-config", ("--kv-transfer-config", KV)),
    Hand("valid", "--kv-transfer-config.kv_port", ("--kv-transfer-config.kv_connector", "NixlConnector", "--kv-transfer-config.kv_role", "kv_both", "--kv-transfer-config.kv_port", "5601")),
    Hand("cross-field", "--kv-transfer-config.kv_role", ("--kv-transfer-config.kv_role", "kv_producer")),
    Hand("cross-field", "--kv-transfer-config", ("--kv-transfer-config", '{"kv_connector":"NixlConnector"}')),
    Hand("wrong-choice", "--kv-transfer-config", ("--kv-transfer-config", '{"kv_connector":"NixlConector","kv_role":"kv_both"}')),
    Hand("wrong-type", "--kv-transfer-config", ("--kv-transfer-config", '{"kv_connector":"NixlConnector","kv_role":"kv_both"')),
    # model-dependent
    Hand("valid", "--enable-expert-parallel", ("--enable-expert-parallel",), model="moe"),
    Hand("cross-field", "--enable-expert-parallel", ("--enable-expert-parallel",)),
    Hand("valid", "--enable-eplb", ("--enable-expert-parallel", "--enable-eplb"), model="moe"),
    Hand("cross-field", "--enable-eplb", ("--enable-eplb",), model="moe"),
    Hand("cross-field", "-tp", ("-tp", "3")),
    Hand("valid", "-tp", ("-tp", "2")),
    Hand("cross-field", "-pp", ("-pp", "8")),
    Hand("valid", "-pp", ("-pp", "2")),
    Hand("cross-field", "--max-model-len", ("--max-model-len", "100000")),
    Hand("valid", "--max-model-len", ("--max-model-len", "8192")),
    Hand("valid", "--max-model-len", ("--max-model-len", "4k")),
    Hand("valid", "--max-model-len", ("--max-model-len", "auto"), model="moe"),
    Hand("valid", "--dtype", ("--dtype", "float16"), model="quant"),
    Hand("cross-field", "--max-num-seqs", ("--max-num-seqs", "512", "--max-num-batched-tokens", "256")),
    Hand("cross-field", "--data-parallel-rank", ("--data-parallel-size", "2", "--data-parallel-rank", "2")),
    Hand("valid", "--data-parallel-rank", ("--data-parallel-size", "2", "--data-parallel-rank", "1"), model="moe"),
    Hand("cross-field", "--data-parallel-rank", ("--data-parallel-size", "2", "--data-parallel-rank", "1")),
    Hand("cross-field", "--kv-transfer-config", ("--kv-transfer-config", "{}")),
    Hand("cross-field", "--kv-transfer-config", ("--kv-transfer-config", '{"kv_role":"kv_both"}')),
    Hand("valid", "--kv-transfer-config", ("--kv-transfer-config", KV, "--kv-transfer-config", '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}')),
    Hand("cross-field", "--data-parallel-hybrid-lb", ("--data-parallel-hybrid-lb", "--data-parallel-external-lb")),
    Hand("cross-field", "--num-redundant-experts", ("--num-redundant-experts", "2"), model="moe"),
    Hand("cross-field", "--enable-auto-tool-choice", ("--enable-auto-tool-choice", "--tool-call-parser", "hermess")),
    Hand("valid", "--", ("--max-num-seq", "8")),
    Hand("misspelt-name", "--", ("--max-num-seqz", "8")),
    Hand("misspelt-name", "--", ("--max-num", "8")),
    Hand("wrong-type", "--served-model-name", ("--served-model-name",)),
    Hand("valid", "--served-model-name", ("--served-model-name", "a", "b")),
    Hand("valid", "--", ("--max-num-seqs=8",)),
    Hand("valid", "--", ("--max_num_seqs", "8")),
    Hand("valid", "--", ("--gpu-memory-utilization", "0.5", "--gpu-memory-utilization", "0.9")),
    Hand("out-of-range", "--gpu-memory-utilization", ("--gpu-memory-utilization", "1.5")),
    Hand("out-of-range", "-tp", ("-tp", "0")),
    Hand("out-of-range", "--max-num-seqs", ("--max-num-seqs", "-1")),
    # the environment
    Hand("env", "VLLM_LOGGING_LEVEL", (), {"VLLM_LOGGING_LEVEL": "DEBUG"}),
    Hand("env", "VLLM_LOGGING_LEVEL", (), {"VLLM_LOGGING_LEVEL": "info"}),
    Hand("env", "VLLM_LOGGING_LEVEL", (), {"VLLM_LOGGING_LEVEL": "WARNING"}),
    Hand("env", "VLLM_LOGGING_LEVEL", (), {"VLLM_LOGGING_LEVEL": "LOUD"}),
    Hand("env", "VLLM_LOGGING_LEVEL", (), {"VLLM_LOGGING_LEVEL": "trace"}),
    Hand("env", "VLLM_LOGGING_LEVEL", (), {"VLLM_LOGGING_LEVEL": "5"}),
    Hand("env", "VLLM_LOGGING_LEVEL", (), {"VLLM_LOGGING_LEVEL": "LOUD", "VLLM_CONFIGURE_LOGGING": "0"}),
    Hand("env", "VLLM_*", (), {"VLLM_NOT_A_VARIABLE": "1"}),
    Hand("env", "VLLM_*", ("--fail-on-environ-validation",), {"VLLM_ATTENTION_BACKENDD": "FLASH_ATTN"}),
    Hand("env", "VLLM_*", ("--fail-on-environ-validation",), {"VLLM_LOGGING_LEVEL": "DEBUG"}),
    Hand("env", "VLLM_*", ("--fail-on-environ-validation",), {"VLLM_USE_V1": "1"}),
    Hand("env", "VLLM_*", ("--no-fail-on-environ-validation",), {"VLLM_NOT_A_VARIABLE": "1"}),
    Hand("env", "VLLM_ENGINE_READY_TIMEOUT_S", (), {"VLLM_ENGINE_READY_TIMEOUT_S": "abc"}),
    Hand("env", "VLLM_PORT", (), {"VLLM_PORT": "tcp://10.0.0.1:5000"}),
)
# fmt: on


def _by_hand(cat: Catalog, m: dict[str, str]) -> list[tuple[str, str, list[str], dict[str, str], Optional[str]]]:
    """(kind, subject, argv, env, example) of each `BY_HAND` launch whose options the
    release has (an option it lacks would only test that it lacks it), the model first."""
    has = {s for f in cat.flags for s in f.option_strings}
    return [
        (h.kind, h.subject, [m[h.model], *h.argv], dict(h.env or {}), h.example)
        for h in BY_HAND
        if all(not a.startswith("--") or a.split("=")[0].split(".")[0] in has for a in h.argv)
    ]


# --------------------------------------------------------------------------- all of it


def _config_field(cat: Catalog, cls_name: Optional[str], name: Optional[str]) -> Optional[ConfigField]:
    if not cls_name or not name:
        return None
    for c in cat.configs:
        if c.name == cls_name:
            return next((f for f in c.fields if f.name == name), None)
    return None


def _json_class(cat: Catalog, flag: Flag) -> Optional[ConfigClass]:
    classes = {c.name: c for c in cat.configs}
    if flag.config_class_of_value:
        return classes.get(flag.config_class_of_value)
    f = _config_field(cat, "VllmConfig", flag.dest)
    if f is not None:
        for part in f.type.replace("|", " ").split():
            if part in classes:
                return classes[part]
    return None


def generate(cat: Catalog, models: dict[str, str]) -> list[Case]:
    cases: list[Case] = []
    seen: set[tuple[tuple[str, ...], tuple[tuple[str, str], ...]]] = set()

    def push(
        kind: str,
        subject: str,
        argv: list[str],
        env: Optional[dict[str, str]] = None,
        example: Optional[str] = None,
        config: Optional[str] = None,
    ) -> None:
        key = (tuple(argv), tuple(sorted((env or {}).items())), config)
        if key in seen and example is None:
            return
        seen.add(key)
        cases.append(
            Case(f"{len(cases):04d}", kind, subject, tuple(argv), tuple(sorted((env or {}).items())), example, config)
        )

    for kind, subject, argv, env, ex in _by_hand(cat, models):
        push(kind, subject, argv, env, ex)
    for i, var in enumerate(cat.env_vars):
        if var.choices:
            push("env", var.name, [models["dense"]], {var.name: str(var.choices[-1])})
            push("env", var.name, [models["dense"]], {var.name: misspell(str(var.choices[0])) + "q"})
        if i % 4 == 0:
            push("env", "VLLM_* misspelt", [models["dense"]], {misspell(var.name): "1"})
    dense = models["dense"]
    for flag in cat.flags:
        if flag.positional or not flag.option_strings or flag.option_strings[0] in SKIP_FLAGS:
            continue
        if flag.dest in JSON_FLAGS:
            cls = _json_class(cat, flag)
            if cls is not None:
                for kind, key, argv in _json_cases(flag, cls, {c.name: c for c in cat.configs}):
                    push(kind, f"{flag.option_strings[0]} {key}", [dense, *argv])
            continue
        fld = _config_field(cat, flag.config_class, flag.config_field)
        yaml_kinds: set[str] = set()
        for kind, argv in _flag_cases(flag, fld, dense):
            push(kind, flag.option_strings[0], [dense, *argv])
            # the same value from a --config YAML file, once per flag and kind
            if (
                len(argv) == 2
                and argv[0].startswith("--")
                and kind in YAML_KINDS
                and kind not in yaml_kinds
                and flag.nargs in (None, "?")
            ):
                yaml_kinds.add(kind)
                push(
                    kind,
                    f"{flag.option_strings[0]} (yaml)",
                    [dense, "--config", "{config}"],
                    config=f"{argv[0][2:]}: {argv[1]}\n",
                )
    return cases


#: the kinds of flag case also written as a ``--config`` YAML file
YAML_KINDS = ("valid", "wrong-type", "out-of-range", "wrong-choice")
