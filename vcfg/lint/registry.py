"""The explicit list of rules.  Adding a rule: write its module under
``vcfg/lint/rules/``, add its name here, run ``python -m vcfg.dev generate --only rules``."""

from __future__ import annotations

import importlib
import sys
from functools import lru_cache
from types import ModuleType
from typing import Any

from vcfg.lint.rule import Rule

RULE_MODULES: tuple[str, ...] = (
    "vc000_parse_error",
    "vc001_unknown_flag",
    "vc002_removed_flag",
    "vc003_deprecated_flag",
    "vc004_invalid_value",
    "vc005_invalid_choice",
    "vc006_out_of_range",
    "vc007_duplicate_flag",
    "vc008_comma_joined_list",
    "vc009_flag_takes_no_value",
    "vc010_model_option",
    "vc011_yaml_false_dropped",
    "vc012_abbreviated_flag",
    "vc013_unknown_subcommand",
    "vc014_unknown_registered_name",
    "vc020_invalid_json",
    "vc021_typographic_quotes",
    "vc022_unknown_config_key",
    "vc023_removed_config_key",
    "vc024_config_value_type",
    "vc025_config_value_choice",
    "vc026_connector_without_role",
    "vc027_unknown_connector",
    "vc028_unknown_extra_config_key",
    "vc029_missing_extra_config_key",
    "vc030_extra_config_value",
    "vc101_unknown_env_var",
    "vc102_invalid_env_value",
    "vc103_removed_env_var",
    "vc104_env_not_exported",
    "vc105_env_set_after_launch",
    "vc106_pythonpath_not_paths",
    "vc107_plugin_env_unset",
    "vc108_expandable_segments_with_connector",
    "vc109_env_bool_read_as_false",
    "vc110_unknown_logging_level",
    "vc201_batched_tokens_below_model_len",
    "vc202_batched_tokens_below_num_seqs",
    "vc203_parallel_exceeds_gpus",
    "vc204_tp_not_dividing_heads",
    "vc205_max_model_len_above_limit",
    "vc206_kv_cache_too_small",
    "vc207_expert_parallel_dense_model",
    "vc208_pipeline_exceeds_layers",
    "vc209_dp_rank_out_of_range",
    "vc210_hybrid_lb_without_local_size",
    "vc211_nnodes_not_dividing_world",
    "vc212_node_rank_out_of_range",
    "vc213_nnodes_needs_mp_backend",
    "vc214_headless_with_api_servers",
    "vc215_several_lb_modes",
    "vc216_dp_local_above_dp_size",
    "vc217_dp_exceeds_gpus",
    "vc218_external_lb_needs_dp",
    "vc219_external_rank_local_size",
    "vc220_eplb_without_expert_parallel",
    "vc221_eplb_without_parallelism",
    "vc222_redundant_experts_without_eplb",
    "vc223_removed_all2all_backend",
    "vc224_unknown_dp_backend",
    "vc225_headless_hybrid_lb",
    "vc226_dcp_not_dividing_tp",
    "vc227_long_prefill_above_model_len",
    "vc228_log_outputs_without_log_requests",
    "vc229_auto_tool_choice_without_parser",
    "vc230_max_model_len_zero",
    "vc231_kv_config_without_connector",
    "vc232_environ_validation_fails",
    "vc233_spec_without_token_count",
    "vc234_ssu_algorithm_needs_flashinfer",
    "vc235_detailed_traces_without_endpoint",
    "vc236_spec_metrics_without_speculation",
    "vc237_elastic_ep_without_eplb",
    "vc238_spec_tokens_without_draft",
    "vc239_config_keys_conflict",
    "vc240_mamba_rounding_needs_float16",
    "vc241_fault_tolerance_needs_external_lb",
    "vc242_negative_sse_keep_alive",
    "vc243_offload_group_too_small",
    "vc244_kv_offloading_backend_without_size",
    "vc245_external_dp_dense_model",
    "vc260_missing_config_key",
    "vc261_kv_cache_dtype_not_model_dtype",
    "vc262_quantization_unquantized_checkpoint",
    "vc263_batched_tokens_below_derived_len",
    "vc264_mtp_without_mtp_layers",
    "vc301_pd_roles",
    "vc302_port_collision",
    "vc303_pd_mismatch",
    "vc304_http_port_mismatch",
    "vc305_proxy_upstream_mismatch",
    "vc306_gpu_memory_oversubscribed",
    "vc307_dp_nodes_disagree",
    "vc308_dp_rank_coverage",
    "vc900_unused_suppression",
)


@lru_cache(maxsize=1)
def rule_modules() -> tuple[ModuleType, ...]:
    """Every listed rule module (a listed module that does not exist is an error, and
    tests/test_lint_framework.py fails for a rule module that is not listed)."""
    return tuple(module(name) for name in RULE_MODULES)


def module(name: str) -> ModuleType:
    """Rule module ``name`` of `RULE_MODULES` (imported when first asked for)."""
    full = f"vcfg.lint.rules.{name}"
    return sys.modules.get(full) or importlib.import_module(full)


def all_rules() -> list[Rule]:
    return [m.RULE for m in rule_modules()]


def rule_docs() -> dict[str, dict[str, Any]]:
    """code -> the rule record as a dict (for `vcfg explain VC001`)."""
    out = {}
    for r in all_rules():
        out[r.code] = {
            "code": r.code,
            "name": r.name,
            "summary": r.summary,
            "severity": r.severity,
            "versions": r.versions,
            "why": r.why,
            "when_vllm_fails": r.when_vllm_fails,
            "example": r.example,
            "use_instead": r.use_instead,
            "sources": list(r.sources),
        }
    return out


def known_codes() -> list[str]:
    """Every rule's code, read from the module names (no rule module is imported)."""
    return [name.split("_", 1)[0].upper() for name in RULE_MODULES]


def check_codes(codes: list[str], where: str) -> None:
    """Raise a usage error for a code or prefix no rule has (``--select VCOO1`` would
    otherwise select nothing and switch the linter off), with the nearest codes."""
    from vcfg.errors import VcfgError

    known = known_codes()
    bad = [c for c in codes if not any(k.startswith(c.upper()) for k in known)]
    if not bad:
        return
    from difflib import get_close_matches

    parts = []
    for c in bad:
        up = c.upper()
        # letters that look like digits first: VCOO1 is VC001, VClO1 is VC101
        look = up[:2] + up[2:].translate(str.maketrans("OIL", "011"))
        near = [look] if any(k.startswith(look) for k in known) else []
        near += [k for k in get_close_matches(up, known, n=2, cutoff=0.6) if k not in near]
        near = near[:2]
        parts.append(f"{c!r}" + (f" (did you mean {' or '.join(near)}?)" if near else ""))
    raise VcfgError(
        f"{where}: unknown rule code{'s' if len(bad) > 1 else ''} or prefix{'es' if len(bad) > 1 else ''}: "
        + ", ".join(parts),
        hint="codes look like VC001, prefixes like VC0 or VC1; `vcfg explain VC001` describes one "
        "(docs/rules/ lists them all)",
    )
