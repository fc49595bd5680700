"""What the deep rules (VC204-VC208) share: the launch's model read from a local
directory's config.json, and the parallel options as written.

The model is the launch's positional model argument when it names a local directory
holding a config.json: relative to the script's folder first, then as given (relative
to the current directory); or, for a Hub id (``Qwen/Qwen3-8B``), the snapshot already
in the Hugging Face cache on this machine (vcfg/plan/hf_cache.py: ``--download-dir``,
``$HF_HUB_CACHE``, ``$HF_HOME/hub``, ``~/.cache/huggingface/hub``; the ref of
``--revision``, default ``main``).  Nothing is ever downloaded; a Hub name that is not
cached, a directory without config.json, an unreadable or partial config, or a launch
that rewrites the config (``--hf-overrides``, ``--hf-config-path``) gives None and the
rules stay silent.  Looked up only when a rule asks, once per launch.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

from vcfg.diagnostics import Span
from vcfg.launch.model import ENGINE_KINDS
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import Option
from vcfg.lint.rules._args import span
from vcfg.plan.model_facts import ModelFacts
from vcfg.records import record

#: a Qwen3-8B-shaped config.json (the keys vLLM reads) at a local model folder: the
#: model of the model rules' examples (``Rule.example_files``)
QWEN3_8B = (
    "qwen3-8b/config.json",
    '{"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 36,\n'
    ' "hidden_size": 4096, "intermediate_size": 12288, "num_attention_heads": 32,\n'
    ' "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936,\n'
    ' "max_position_embeddings": 40960, "torch_dtype": "bfloat16"}\n',
)

#: the knowledge-pack setting (settings.toml, with vLLM's sources) naming the config
#: keys vLLM reads the expert count from; per-layer block_configs count too
#: (0.33.0 model_arch_config_convertor.py:159-190)
EXPERT_KEYS = "model.expert-count-keys"


def expert_keys(lc: LaunchContext) -> list[str]:
    """The config.json keys that give a model's expert count, for the launch's release."""
    s = lc.target.knowledge.setting(EXPERT_KEYS, lc.target.version)
    return s.values if s is not None else []


@record(frozen=True)
class Model:
    facts: ModelFacts
    raw: dict[str, Any]  # config.json as read
    config_path: str  # for messages
    #: found in the Hugging Face cache (the folder may hold only some of the repo's files)
    cached: bool = False

    @property
    def folder(self) -> Path:
        return Path(self.config_path).parent

    def raw_value(self, key: str) -> Any:
        """``key`` at the top level of config.json, else in a nested section."""
        for sec in self.sections():
            if key in sec:
                return sec[key]
        return None

    def sections(self) -> list[dict[str, Any]]:
        """The top level and the nested dicts (text_config, llm_config, ...)."""
        return [self.raw, *(v for v in self.raw.values() if isinstance(v, dict))]

    def may_have_experts(self, keys: list[str]) -> bool:
        """Whether config.json may give the model experts (``keys``: `expert_keys`)."""
        if self.facts.is_moe:
            return True
        for sec in self.sections():
            if sec.get("block_configs"):
                return True
            for k in keys:
                v = sec.get(k)
                if v not in (None, 0, False, [], ""):
                    return True
        return False

    def model_max_length(self) -> Optional[int]:
        """config.json's model_max_length, which vLLM lets a longer --max-model-len up
        to (vllm/config/model.py:2656-2661, 0.33.0)."""
        for sec in self.sections():
            v = sec.get("model_max_length")
            if isinstance(v, int) and not isinstance(v, bool) and v > 0:
                return v
        return None


def _candidates(lc: LaunchContext, ov: Any, text: str) -> list[Path]:
    p = Path(os.path.expanduser(text))
    if p.is_absolute():
        return [p]
    out = [Path(lc.path).parent / p]
    where = getattr(ov.span, "file", None)
    if where and where != lc.path:
        out.append(Path(where).parent / p)  # a model named in a --config YAML
    out.append(p)
    return out


@lru_cache(maxsize=32)
def _load(cfg_file: str, stamp: tuple[int, int], cached: bool = False) -> Optional[Model]:
    from vcfg.errors import VcfgError
    from vcfg.plan.model_facts import load_facts

    try:
        facts = load_facts(model=str(Path(cfg_file).parent))
        from vcfg.bounded import json_loads
        from vcfg.fileio import MAX_BYTES, read_regular

        raw = json_loads(read_regular(cfg_file)[:MAX_BYTES])
    except (VcfgError, OSError, ValueError, TypeError, ArithmeticError, AttributeError, RecursionError):
        return None
    if not isinstance(raw, dict):
        return None
    return Model(facts=facts, raw=raw, config_path=cfg_file, cached=cached)


def local_model(lc: LaunchContext) -> Optional[Model]:
    """The model of a serve launch when its config.json is readable here, else None
    (memoised on the launch: several rules ask)."""
    if "local_model" not in lc.memo:
        lc.memo["local_model"] = _find(lc)
    return lc.memo["local_model"]


def _env_text(lc: LaunchContext, name: str) -> Optional[str]:
    """A variable the launch receives, as known text; else this process's value."""
    b = lc.inv.env.get(name)
    if b is not None:
        if b.unset or not b.exported or b.value is None or b.value.text is None:
            return None
        return b.value.text
    return os.environ.get(name)


def _hub_snapshot(lc: LaunchContext, pa: Any, text: str) -> Optional[Path]:
    from vcfg.plan import hf_cache

    if not hf_cache.is_repo_id(text):
        return None
    env = {k: v for k in ("HF_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME") if (v := _env_text(lc, k))}
    dl = pa.get("download_dir")
    rev = pa.get("revision")
    if (dl is not None and not dl.known) or (rev is not None and not rev.known):
        return None
    download_dir = dl.value if dl is not None and isinstance(dl.value, str) else None
    revision = rev.value if rev is not None and isinstance(rev.value, str) and rev.value else None
    return hf_cache.snapshot_dir(text, hf_cache.cache_dirs(env, download_dir), revision)


def model_value(lc: LaunchContext, pa: Any) -> Any:
    """The occurrence that names the launch's model: ``vllm serve``'s model argument;
    for an entry point without one (``python -m vllm.entrypoints.openai.api_server``,
    a Dynamo worker) its ``--model`` option, the engine's ``model`` field both parse
    into (vllm/engine/arg_utils.py ``add_cli_args``), when no unknown word after it
    could give another (the last ``--model`` wins)."""
    if pa.model is not None or lc.inv.subcommand[:1] == ("serve",):
        return pa.model
    ov = pa.get("model")
    return ov if ov is not None and pa.complete else None


def _find(lc: LaunchContext) -> Optional[Model]:
    pa = lc.args if lc.inv.kind in ENGINE_KINDS else None
    model = None if pa is None else model_value(lc, pa)
    if pa is None or model is None or not model.known or not isinstance(model.value, str):
        return None
    for dest in ("hf_overrides", "hf_config_path"):
        ov = pa.get(dest)
        if ov is not None and (not ov.known or ov.value not in (None, {}, "", "{}")):
            return None
    text = model.value.strip()
    if not text:
        return None
    for d in _candidates(lc, model, text):
        cfg = d / "config.json"
        try:
            if not cfg.is_file():
                continue
            st = cfg.stat()
            index = d / "model.safetensors.index.json"
            istamp = index.stat().st_mtime_ns if index.is_file() else 0
        except OSError:
            continue
        return _load(str(cfg), (st.st_mtime_ns, istamp))
    if text.startswith((".", "/", "~")):
        return None  # a path, not a Hub id
    snap = _hub_snapshot(lc, pa, text)
    if snap is None:
        return None
    cfg = snap / "config.json"
    try:
        st = cfg.stat()
        index = snap / "model.safetensors.index.json"
        istamp = index.stat().st_mtime_ns if index.is_file() else 0
    except OSError:
        return None
    return _load(str(cfg), (st.st_mtime_ns, istamp), True)


def positive_int(o: Option) -> Optional[int]:
    """The option's value when it is known and a positive int, else None."""
    if isinstance(o.value, bool) or not isinstance(o.value, int) or o.value <= 0:
        return None
    return o.value


def name_span(lc: LaunchContext, o: Option) -> Span:
    """Where the user wrote the option's name (``-tp``)."""
    return span(lc, o.ov.name_span if o.ov is not None else lc.inv.span)


def span_of_value(lc: LaunchContext, o: Option) -> Span:
    """Where the user wrote the option's value (its name when the value has no place)."""
    if o.ov is None:
        return span(lc, lc.inv.span)
    return span(lc, o.ov.value_span or o.ov.name_span)
