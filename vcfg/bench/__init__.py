"""Reads `vllm bench serve` results (text report or --save-result JSON) and judges them.

parse.load -> BenchResult (model.py) -> metrics.analyze -> Analysis -> render / to_json.
"""

from __future__ import annotations

from vcfg.bench.metrics import Analysis, analyze
from vcfg.bench.parse import load, loads
from vcfg.bench.slo import Slos


def analyze_files(paths: list[str], slos: Slos) -> list[Analysis]:
    """One analysis per result found in the files, in order; results that claim
    different request rates but hold the same numbers are all flagged as broken."""
    analyses = [analyze(result, slos) for path in paths for result in load(path)]
    return flag_identical_sweeps(analyses)


def flag_identical_sweeps(analyses: list[Analysis]) -> list[Analysis]:
    from vcfg.bench.metrics import Caveat, measurement_verdict
    from vcfg.bench.sanity import identical_across_rates
    from vcfg.records import replace

    rates = [a.result.request_rate for a in analyses]
    if not identical_across_rates(rates, [a.result.summary for a in analyses]):
        return analyses
    shown = ", ".join("inf" if r == float("inf") else f"{r:g}" for r in rates if r is not None)
    reason = (
        f"the results at request rates {shown} hold the same numbers: the rate did not "
        "reach the server, or one result was copied for the others"
    )
    out = []
    for a in analyses:
        verdicts = [v for v in a.verdicts if v.metric != "measurement"]
        old = next((v.reason for v in a.verdicts if v.metric == "measurement"), "")
        reasons = [r for r in old.split("; ") if r] + [reason]
        out.append(
            replace(
                a,
                verdicts=verdicts + [measurement_verdict(reasons)],
                caveats=a.caveats + [Caveat("broken-measurement", "error", reason)],
            )
        )
    return out


__all__ = ["Analysis", "Slos", "analyze", "analyze_files", "load", "loads"]
