"""Analyses and comparisons as text (formulas with the numbers put in) and Markdown.
JSON comes from the `to_json` methods; this module only formats."""

from __future__ import annotations

from collections import Counter
from typing import Optional

from vcfg.bench.compare import Comparison, Row, regressed
from vcfg.bench.metrics import NODE, Analysis, Verdict
from vcfg.bench.perrequest import GOODPUT_DEFINITION, PerRequestAnalysis

KIND = {
    "text": "text report",
    "save-result-json": "--save-result JSON",
    "sglang-text": "SGLang bench_serving text report",
    "sglang-json": "SGLang bench_serving JSON",
}
LATENCY_NAMES = {
    "ttft": "TTFT",
    "tpot": "TPOT",
    "itl": "ITL",
    "e2el": "E2EL",
    "client_queue_time": "client queue",
    "e2el_including_client_queue": "E2EL+queue",
}
SHOWN_VIOLATIONS = 10
VERDICT_NAMES = {
    "ttft": "TTFT",
    "tpot": "TPOT",
    "itl": "ITL",
    "failed_requests": "failed requests",
    "goodput": "goodput",
    "measurement": "broken measurement",
}


def _n(value: Optional[float], digits: int = 2, unit: str = "") -> str:
    if value is None:
        return "-"
    text = f"{value:.{digits}f}"
    return f"{text} {unit}" if unit else text


def _int(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.0f}"


def _pct(value: Optional[float]) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _stat_label(stat: str) -> str:
    return stat.upper() if stat.startswith("p") else stat


def _verdict_word(passed: Optional[bool]) -> str:
    return {True: "PASS", False: "FAIL", None: "N/A"}[passed]


def _verdict_text(v: Verdict) -> str:
    if v.metric == "measurement":
        return f"measurement broken: {v.reason}"
    if v.unit == "%":
        name = {"failed_requests": "failed requests", "goodput": "goodput"}.get(v.metric, v.metric)
        if v.value is None:
            return f"{name} unknown: {v.reason}"
        ok = v.passed is not False
        op = v.bound if ok else {"<=": ">", ">=": "<"}[v.bound]
        how = f" {v.statistic}" if v.statistic else ""
        tail = f" ({v.reason})" if v.reason else ""
        return f"{name} {v.value:.1f}%{how} {op} {v.slo:g}%{tail}"
    name = f"{v.metric.upper():<5}"
    if v.value is None:
        return f"{name}not reported (SLO {v.slo:g} ms)"
    op = ">" if v.passed is False else "<="
    return f"{name}{v.statistic} {_n(v.value)} ms {op} {v.slo:g} ms"


def _node(v: Verdict) -> str:
    return f"   {v.node} node" if v.node else ""


def _md_verdict_row(v: Verdict, side: str = "") -> str:
    lead = f"| {side} " if side else ""
    if v.unit == "%":
        name = {"failed_requests": "failed requests", "goodput": "goodput"}.get(v.metric, v.metric)
        value = "-" if v.value is None else f"{v.value:.1f}%"
        slo = f"{v.bound} {v.slo:g}%"
        metric = f"{name} ({v.statistic})"
    elif v.metric == "measurement":
        value, slo, metric = v.reason, "-", "measurement"
    else:
        value = f"{_n(v.value)} ms"
        slo = f"<= {v.slo:g} ms"
        metric = f"{v.metric.upper()} ({v.statistic})"
    return f"{lead}| {metric} | {value} | {slo} | {_verdict_word(v.passed).lower()} | {v.node} |"


def verdict_line(a: Analysis) -> str:
    """The run's one-word verdict and why, for the end of a report."""
    word = a.outcome.upper()
    if a.outcome == "pass":
        return f"Verdict: {word}"
    which = [v for v in a.verdicts if v.passed is (False if a.outcome == "fail" else None)]
    return f"Verdict: {word} ({', '.join(VERDICT_NAMES.get(v.metric, v.metric) for v in which)})"


def _headline(a: Analysis) -> str:
    r = a.result
    parts = [f"{_int(_f(a.successful_requests))} successful"]
    if a.failed_requests is not None:
        parts.append(f"{a.failed_requests} failed")
    parts.append(f"{_n(a.duration_s)} s")
    rate = a.request_rates["configured"]
    if rate is not None:
        parts.append(f"request rate configured {rate:.2f} req/s")
    elif r.request_rate is not None:
        parts.append("request rate unlimited")
    if r.max_concurrency is not None:
        parts.append(f"max concurrency {r.max_concurrency}")
    head = ", ".join(parts)
    return f"{head}; model {r.model_id}" if r.model_id else head


def _f(value: Optional[int]) -> Optional[float]:
    return None if value is None else float(value)


# ------------------------------------------------------------------------------ text


def _derived_lines(a: Analysis) -> list[str]:
    out: list[str] = []
    tpot = a.latency.get("tpot", {})
    speed = a.decode_speed
    out.append("Per-request decode speed = 1000 / TPOT")
    for stat in ("mean", "median", "p99"):
        if tpot.get(stat) is not None:
            out.append(f"  {_stat_label(stat):<8}{_n(speed[stat], 1):>8} tok/s   = 1000 / {_n(tpot[stat])} ms")
    if not tpot:
        out.append("  - (the result reports no TPOT)")
    out.append("  (one request's speed while it decodes, not the system's)")
    out.append("")

    mean_speed = speed["mean"]
    out.append("Effective decode streams = output throughput / mean decode speed")
    out.append(
        f"  mean    {_n(a.streams['mean'], 1):>8}         = {_n(a.output_throughput)} tok/s / {_n(mean_speed, 1)} tok/s"
    )
    if a.peak_output_throughput is not None:
        conc = a.streams.get("peak_concurrent_requests")
        tail = f"   vs {conc:g} peak concurrent requests" if conc is not None else ""
        out.append(
            f"  peak    {_n(a.streams['peak'], 1):>8}         "
            f"= {_n(a.peak_output_throughput)} tok/s / {_n(mean_speed, 1)} tok/s{tail}"
        )
    else:
        out.append("  peak           -         (no peak output throughput; vLLM reports it since 0.11)")
    out.append("")

    g, s = a.goodput, a.result.summary
    dur = _n(a.duration_s)
    out.append("Token goodput of the successful requests = tokens / duration")
    for name, key in (("input", "total_input_tokens"), ("output", "total_output_tokens")):
        formula = f"= {_int(s.get(key))} tokens / {dur} s" if s.get(key) is not None else ""
        out.append(f"  {name:<7}{_n(g[name], 1):>9} tok/s   {formula}".rstrip())
    reported = g.get("reported_total")
    rep = f"reported {_n(reported)}; " if reported is not None else ""
    out.append(
        f"  total  {_n(g['total'], 1):>9} tok/s   = {_n(g['input'], 1)} + "
        f"{_n(g['output'], 1)}   ({rep}not a decode speed)"
    )
    out.append("")

    ok, failed = a.successful_requests, a.failed_requests
    rates = a.request_rates
    out.append("Requests")
    if a.failure_rate is not None:
        out.append(f"  failure rate       {_pct(a.failure_rate):>10}        = {failed} / ({ok} + {failed})")
    else:
        out.append("  failure rate                -        (failed requests not reported)")
    out.append(f"  request throughput {_n(rates['successful']):>10} req/s  = {_int(_f(ok))} / {dur} s")
    if rates["attempted"] is not None:
        conf = rates["configured"]
        extra = f"   (configured {conf:.2f})" if conf is not None else ""
        out.append(f"  attempted          {_n(rates['attempted']):>10} req/s  = ({ok} + {failed}) / {dur} s{extra}")
    vllm_goodput = a.result.get("request_goodput")
    if vllm_goodput is not None:
        out.append(
            f"  request goodput    {_n(vllm_goodput):>10} req/s  (reported by vLLM under the run's own --goodput SLOs)"
        )
    return out


def _latency_lines(a: Analysis) -> list[str]:
    if not a.latency:
        return ["Latency: none reported"]
    stats: list[str] = []
    for per in a.latency.values():
        for stat in per:
            if stat != "std" and stat not in stats:
                stats.append(stat)
    order = {"mean": (0, 0.0), "median": (1, 0.0)}
    stats.sort(key=lambda s: order.get(s) or (2, float(s[1:])))
    head = f"  {'':<20}" + "".join(f"{_stat_label(s):>10}" for s in stats)
    out = ["Latency (ms)", head.rstrip()]
    for metric, per in a.latency.items():
        node = f"{NODE[metric]} node" if metric in NODE else ""
        name = f"{LATENCY_NAMES.get(metric, metric):<7}{node}"
        cells = "".join(f"{_n(per.get(s)):>10}" for s in stats)
        src = "  (from per-request data)" if a.latency_source.get(metric) == "per-request" else ""
        out.append(f"  {name:<20}{cells}{src}")
    return out


def _per_request_lines(p: PerRequestAnalysis, duration: Optional[float]) -> list[str]:
    out = [f"Per-request data: {p.requests} requests, {p.successful} successful"]
    cols = ("count", "mean", "median", "p90", "p99", "max")
    out.append(f"  {'distribution (ms)':<18}" + "".join(f"{(c if c != 'count' else 'n'):>10}" for c in cols))
    names = {"ttft": "TTFT", "tpot": "TPOT", "itl": "ITL (gaps)", "e2el": "E2EL"}
    for metric, dist in p.distributions.items():
        cells = "".join(f"{(_int(dist[c]) if c == 'count' else _n(dist[c])):>10}" for c in cols)
        out.append(f"  {names[metric]:<18}{cells}")
    out.append("")
    g = p.slo_goodput
    slos = ", ".join(f"{m.upper()} <= {v:g} ms" for m, v in g.slos.items())
    out.append(f"SLO goodput ({slos})")
    out.append(f"  {GOODPUT_DEFINITION}")
    out.append(f"  good requests   {g.good} of {g.successful} successful ({_pct(g.good_fraction)}), of {g.sent} sent")
    out.append(f"  request goodput {_n(g.request_goodput_req_s)} req/s = {g.good} / {_n(duration)} s")
    out.append(
        f"  output goodput  {_n(g.output_goodput_tok_s, 1)} tok/s (output tokens of the good requests / duration)"
    )
    if g.violations:
        broken = ", ".join(f"{m.upper()} {n}" for m, n in g.broken_by.items() if n)
        out.append(f"  broke the SLO: {len(g.violations)} requests ({broken})")
        shown = g.violations[:SHOWN_VIOLATIONS]
        more = len(g.violations) - len(shown)
        out.append("  worst" + (f" {len(shown)} (of {len(g.violations)})" if more else "") + ":")
        for v in shown:
            itl = f"  max ITL {_n(v.max_itl_ms)} ms" if v.max_itl_ms is not None else ""
            out.append(
                f"    request #{v.index:<5} TTFT {_n(v.ttft_ms)} ms  TPOT {_n(v.tpot_ms)} ms"
                f"{itl}  broke {', '.join(m.upper() for m in v.broke)}"
            )
    else:
        out.append("  no successful request broke the SLO")
    return out


def render_text(a: Analysis) -> str:
    r = a.result
    out = [f"== {r.source} ({KIND[r.kind]})", _headline(a), ""]
    out.append(f"Verdicts (latency on the mean; {a.slos.describe()})")
    for v in a.verdicts:
        out.append(f"  {_verdict_word(v.passed):<5} {_verdict_text(v)}{_node(v)}")
    out.append(f"  {verdict_line(a)}")
    out.append("")
    out.extend(_derived_lines(a))
    out.append("")
    out.extend(_latency_lines(a))
    if a.per_request is not None:
        out.append("")
        out.extend(_per_request_lines(a.per_request, a.duration_s))
    if a.caveats:
        out.append("")
        out.append("Warnings")
        for c in a.caveats:
            out.append(f"  {c.severity} {c.code}: {c.message}")
        if r.error_samples and any(c.code.endswith("failed-requests") for c in a.caveats):
            out.append("  errors of failed requests (the first ones vLLM printed or saved):")
            for message, count in Counter(r.error_samples).most_common(3):
                out.append(f"    {message}" + (f"  (x{count})" if count > 1 else ""))
    return "\n".join(out) + "\n"


def render_texts(analyses: list[Analysis]) -> str:
    return "\n".join(render_text(a) for a in analyses)


# -------------------------------------------------------------------------- markdown


def _md_derived(a: Analysis) -> list[str]:
    tpot = a.latency.get("tpot", {})
    s, g, dur = a.result.summary, a.goodput, _n(a.duration_s)
    mean_speed = _n(a.decode_speed["mean"], 1)
    rows: list[tuple[str, str, str]] = []
    for stat in ("mean", "median", "p99"):
        if tpot.get(stat) is not None:
            rows.append(
                (
                    f"decode speed per request, {_stat_label(stat)}",
                    f"{_n(a.decode_speed[stat], 1)} tok/s",
                    f"1000 / {_n(tpot[stat])} ms",
                )
            )
    rows.append(
        (
            "effective decode streams, mean",
            _n(a.streams["mean"], 1),
            f"{_n(a.output_throughput)} tok/s / {mean_speed} tok/s",
        )
    )
    if a.peak_output_throughput is not None:
        conc = a.streams.get("peak_concurrent_requests")
        tail = f" (vs {conc:g} peak concurrent requests)" if conc is not None else ""
        rows.append(
            (
                "effective decode streams, peak",
                _n(a.streams["peak"], 1),
                f"{_n(a.peak_output_throughput)} tok/s / {mean_speed} tok/s{tail}",
            )
        )
    for name, key in (("input", "total_input_tokens"), ("output", "total_output_tokens")):
        rows.append(
            (
                f"token goodput, {name}",
                f"{_n(g[name], 1)} tok/s",
                f"{_int(s.get(key))} tokens / {dur} s",
            )
        )
    rep = g.get("reported_total")
    rows.append(
        (
            "token goodput, total",
            f"{_n(g['total'], 1)} tok/s",
            f"input + output (reported {_n(rep)}; not a decode speed)",
        )
    )
    ok, failed = a.successful_requests, a.failed_requests
    if a.failure_rate is not None:
        rows.append(("failure rate", _pct(a.failure_rate), f"{failed} / ({ok} + {failed})"))
    rows.append(("request throughput", f"{_n(a.request_rates['successful'])} req/s", f"{ok} / {dur} s"))
    if a.request_rates["attempted"] is not None:
        rows.append(
            (
                "attempted request rate",
                f"{_n(a.request_rates['attempted'])} req/s",
                f"({ok} + {failed}) / {dur} s",
            )
        )
    out = ["| metric | value | formula |", "|---|---|---|"]
    out.extend(f"| {m} | {v} | {f} |" for m, v, f in rows)
    return out


def render_markdown(a: Analysis) -> str:
    r = a.result
    out = [f"## {r.source}", "", f"{KIND[r.kind]}: {_headline(a)}", ""]
    out += ["### Verdicts", "", f"Latency on the mean; {a.slos.describe()}.", ""]
    out += ["| metric | value | SLO | result | node |", "|---|---|---|---|---|"]
    for v in a.verdicts:
        out.append(_md_verdict_row(v))
    out += ["", f"**{verdict_line(a)}**"]
    out += ["", "### Derived metrics", ""] + _md_derived(a)
    if a.latency:
        stats: list[str] = []
        for per in a.latency.values():
            stats += [s for s in per if s != "std" and s not in stats]
        order = {"mean": (0, 0.0), "median": (1, 0.0)}
        stats.sort(key=lambda s: order.get(s) or (2, float(s[1:])))
        out += ["", "### Latency (ms)", ""]
        out.append("| metric | node | " + " | ".join(_stat_label(s) for s in stats) + " |")
        out.append("|---|---|" + "---:|" * len(stats))
        for metric, per in a.latency.items():
            cells = " | ".join(_n(per.get(s)) for s in stats)
            name = LATENCY_NAMES.get(metric, metric)
            out.append(f"| {name} | {NODE.get(metric, '')} | {cells} |")
    p = a.per_request
    if p is not None:
        g = p.slo_goodput
        out += ["", "### Per-request data", ""]
        out.append(f"{p.requests} requests, {p.successful} successful.")
        out += ["", "| distribution (ms) | n | mean | median | P90 | P99 | max |"]
        out.append("|---|---:|---:|---:|---:|---:|---:|")
        for metric, d in p.distributions.items():
            cells = " | ".join(_n(d[c]) for c in ("mean", "median", "p90", "p99", "max"))
            out.append(f"| {LATENCY_NAMES[metric]} | {_int(d['count'])} | {cells} |")
        slos = ", ".join(f"{m.upper()} <= {v:g} ms" for m, v in g.slos.items())
        out += ["", f"**SLO goodput** ({slos}): {GOODPUT_DEFINITION}.", ""]
        out.append(
            f"- good requests: {g.good} of {g.successful} successful ({_pct(g.good_fraction)}), of {g.sent} sent"
        )
        out.append(f"- request goodput: {_n(g.request_goodput_req_s)} req/s")
        out.append(f"- output goodput: {_n(g.output_goodput_tok_s, 1)} tok/s")
        if g.violations:
            shown = g.violations[:SHOWN_VIOLATIONS]
            out += ["", "| request | TTFT (ms) | TPOT (ms) | max ITL (ms) | broke |"]
            out.append("|---:|---:|---:|---:|---|")
            for viol in shown:
                out.append(
                    f"| {viol.index} | {_n(viol.ttft_ms)} | {_n(viol.tpot_ms)} | "
                    f"{_n(viol.max_itl_ms)} | {', '.join(m.upper() for m in viol.broke)} |"
                )
            if len(g.violations) > len(shown):
                out.append(f"\n{len(g.violations) - len(shown)} more not shown.")
    if a.caveats:
        out += ["", "### Warnings", ""]
        out.extend(f"- **{c.severity}** `{c.code}`: {c.message}" for c in a.caveats)
        if r.error_samples and any(c.code.endswith("failed-requests") for c in a.caveats):
            out += ["", "Errors of failed requests (the first ones vLLM printed or saved):", ""]
            for message, count in Counter(r.error_samples).most_common(3):
                out.append(f"- `{message}`" + (f" (x{count})" if count > 1 else ""))
    return "\n".join(out) + "\n"


def render_markdowns(analyses: list[Analysis]) -> str:
    return "\n".join(render_markdown(a) for a in analyses)


# --------------------------------------------------------------------------- compare


def _cell(key: str, value: Optional[float]) -> str:
    if value is None:
        return "-"
    if key in ("failure_rate", "slo_good_fraction"):
        return _pct(value)
    if key in ("successful_requests", "failed_requests", "peak_concurrent_requests"):
        return _int(value)
    if key.startswith(("decode_speed", "effective", "goodput")):
        return _n(value, 1)
    return _n(value)


def _change_word(c: Comparison, r: Row) -> str:
    return f"{r.change}, regression" if regressed(r, c.max_regression_pct) else str(r.change)


def regression_line(c: Comparison) -> str:
    regs = c.regressions
    if not regs:
        return f"No regression past {c.max_regression_pct:g}% (B against A)"
    names = ", ".join(r.label for r in regs)
    return f"Regressions past {c.max_regression_pct:g}% (B against A): {names}"


def render_compare_text(c: Comparison) -> str:
    out = [
        f"A: {c.a.result.source} ({KIND[c.a.result.kind]})",
        f"B: {c.b.result.source} ({KIND[c.b.result.kind]})",
        "",
        f"{'metric':<44}{'A':>12}{'B':>12}{'B/A':>8}",
    ]
    for r in c.rows:
        ratio = f"{r.ratio:.2f}" if r.ratio is not None else "-"
        change = f"  {_change_word(c, r)}" if r.change else ""
        out.append(f"{r.label:<44}{_cell(r.key, r.a):>12}{_cell(r.key, r.b):>12}{ratio:>8}{change}")
    out += ["", "Verdicts"]
    for side, a in (("A", c.a), ("B", c.b)):
        for v in a.verdicts:
            out.append(f"  {side}  {_verdict_word(v.passed):<5} {_verdict_text(v)}{_node(v)}")
        out.append(f"  {side}  {verdict_line(a)}")
    warned = [(side, w) for side, a in (("A", c.a), ("B", c.b)) for w in a.caveats]
    if warned:
        out += ["", "Warnings"]
        out.extend(f"  {side}  {w.severity} {w.code}: {w.message}" for side, w in warned)
    out += ["", regression_line(c)]
    return "\n".join(out) + "\n"


def render_compare_markdown(c: Comparison) -> str:
    out = [
        "## Benchmark comparison",
        "",
        f"- A: `{c.a.result.source}` ({KIND[c.a.result.kind]})",
        f"- B: `{c.b.result.source}` ({KIND[c.b.result.kind]})",
        "",
        "| metric | A | B | B/A | change |",
        "|---|---:|---:|---:|---|",
    ]
    for r in c.rows:
        ratio = f"{r.ratio:.2f}" if r.ratio is not None else "-"
        out.append(
            f"| {r.label} | {_cell(r.key, r.a)} | {_cell(r.key, r.b)} | {ratio} | "
            f"{_change_word(c, r) if r.change else ''} |"
        )
    out += ["", "### Verdicts", "", "| side | metric | value | SLO | result | node |"]
    out.append("|---|---|---|---|---|---|")
    for side, a in (("A", c.a), ("B", c.b)):
        for v in a.verdicts:
            out.append(_md_verdict_row(v, side))
    warned = [(side, w) for side, a in (("A", c.a), ("B", c.b)) for w in a.caveats]
    if warned:
        out += ["", "### Warnings", ""]
        out.extend(f"- {side}: **{w.severity}** `{w.code}`: {w.message}" for side, w in warned)
    out += ["", f"**{regression_line(c)}**"]
    return "\n".join(out) + "\n"
