"""VC303 pd-mismatch: prefill and decode instances that differ where they must agree."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic, Span
from vcfg.lint.context import LaunchContext, RunContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules import _hosts, _kv, _pd
from vcfg.lint.rules._args import span

RULE = Rule(
    code="VC303",
    name="pd-mismatch",
    summary="prefill and decode that differ where the connector needs them equal (model, TP, block size, KV cache dtype)",
    severity="warning",
    scope="run",
    why=(
        "The decode instance reads the KV cache the prefill instance wrote, block by "
        "block, so both must serve the same model with the same KV layout: the same "
        "`--block-size` and `--kv-cache-dtype`, and for P2pNcclConnector the same "
        "tensor-parallel size. vLLM does not compare the two instances; a mismatch shows "
        "up as a hang, a failed transfer or wrong output. Pairs are the servers one proxy "
        "sends prefills and decodes to, else each producer with each consumer of a "
        "connector. Block size and KV cache dtype are compared only when both instances "
        "set them (their defaults depend on the model and the GPU)."
    ),
    when_vllm_fails="never at start-up: at the first transfer, or as wrong output",
    example=(
        "CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 8100 --block-size 16 --kv-transfer-config \\\n"
        '  \'{"kv_connector":"NixlConnector","kv_role":"kv_producer"}\' &\n'
        "CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5700 vllm serve Qwen/Qwen3-8B --port 8200 --block-size 32 \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}\' &\n'
        "wait\n"
    ),
    use_instead=(
        "CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 8100 --block-size 16 --kv-transfer-config \\\n"
        '  \'{"kv_connector":"NixlConnector","kv_role":"kv_producer"}\' &\n'
        "CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5700 vllm serve Qwen/Qwen3-8B --port 8200 --block-size 16 \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}\' &\n'
        "wait\n"
    ),
)


class _Side:
    """One instance's value of a compared setting."""

    def __init__(self, value: Any, name: str, at: Optional[Span]) -> None:
        self.value, self.name, self.at = value, name, at


def _model(lc: LaunchContext) -> Optional[_Side]:
    m = lc.args.model if lc.args is not None else None
    if m is None or not m.known or not isinstance(m.value, str):
        return None
    return _Side(m.value, "the model", span(lc, m.value_span or m.span))


def _opt(dest: str, given: bool) -> Any:
    def read(lc: LaunchContext) -> Optional[_Side]:
        o = option(lc, dest, given=given)
        if not o.exists or not o.known:
            return None
        at = span(lc, o.ov.value_span or o.ov.span) if o.ov is not None else None
        return _Side(o.value, f"`{o.name}`", at)

    return read


#: what both sides of every disaggregating connector must agree on, as (what, reader)
_ALWAYS = (
    ("model", _model),
    ("block_size", _opt("block_size", given=True)),
    ("kv_cache_dtype", _opt("kv_cache_dtype", given=True)),
)


def _checks(lc: LaunchContext, name: str) -> tuple[tuple[str, Any], ...]:
    """`_ALWAYS`, and the options the connector's knowledge facts list in
    ``same_across_pd`` (defaults count: what matters is the value each side runs)."""
    facts = _kv.facts(lc, name)
    more = tuple((dest, _opt(dest, given=False)) for dest in (facts.same_across_pd if facts else ()))
    return _ALWAYS + more


def check(run: RunContext) -> Iterator[Diagnostic]:
    seen: set[tuple[int, str]] = set()
    for p, d, name in _pd.pd_pairs(run):
        for what, read in _checks(d, name):
            if (id(d), what) in seen:
                continue
            a, b = read(p), read(d)
            if a is None or b is None or a.value == b.value:
                continue
            # point at the decode side's word, else the prefill side's
            here, mine, theirs, other, role = (d, b, a, p, "prefill") if b.at is not None else (p, a, b, d, "decode")
            if mine.at is None:
                continue
            seen.add((id(d), what))
            default = "" if theirs.at is not None else " (the default)"
            yield RULE.diag(
                mine.at,
                f"{mine.name} is `{mine.value}` here but `{theirs.value}`{default} on the "
                f"{role} instance at {_hosts.where(here, other)}",
                help=f"prefill and decode instances of {name} must use the same value",
            )
