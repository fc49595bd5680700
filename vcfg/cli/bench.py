"""`vcfg bench analyze` and `vcfg bench compare`: `vllm bench serve` results read and judged."""

from __future__ import annotations

import sys
from typing import Any, Optional

import click

from vcfg.cli.shared import Group, echo_json
from vcfg.errors import EXIT_FINDINGS, EXIT_OK, VcfgError


def _slo_options(f: Any) -> Any:
    f = click.option("--slo-itl-ms", type=float, help="ITL objective (ms): verdict on the mean ITL")(f)
    f = click.option("--slo-ttft-ms", type=float, help="TTFT objective (ms): verdict on the mean TTFT")(f)
    f = click.option(
        "--slo-tpot-ms",
        type=float,
        default=50.0,
        show_default=True,
        help="TPOT objective (ms): verdict on the mean TPOT",
    )(f)
    f = click.option(
        "--max-failed-pct",
        type=float,
        default=0.0,
        show_default=True,
        help="most failed requests a passing run may have, in % of those sent",
    )(f)
    f = click.option(
        "--min-goodput-pct",
        type=float,
        help="least share of sent requests good under the SLOs, in % (vLLM's goodput)",
    )(f)
    f = click.option(
        "--fail-on",
        type=click.Choice(["fail", "unknown", "never"]),
        default="unknown",
        show_default=True,
        help="exit 1 when a verdict fails (fail), also when one cannot be decided, "
        "such as an unknown failed count (unknown), or never",
    )(f)
    return f


def _bench_exit(analyses: Any, fail_on: str) -> int:
    if fail_on == "never":
        return EXIT_OK
    bad = ("fail",) if fail_on == "fail" else ("fail", "unknown")
    return EXIT_FINDINGS if any(a.outcome in bad for a in analyses) else EXIT_OK


@click.group(cls=Group)
def bench() -> None:
    """Read `vllm bench serve` results (text report or --save-result JSON) and judge them."""


@bench.command("analyze")
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@_slo_options
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text")
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    help="write a PNG of the TTFT and TPOT distributions (needs per-request data and the 'plot' extra)",
)
def bench_analyze(
    files: tuple[str, ...],
    slo_tpot_ms: float,
    slo_ttft_ms: Optional[float],
    slo_itl_ms: Optional[float],
    max_failed_pct: float,
    min_goodput_pct: Optional[float],
    fail_on: str,
    fmt: str,
    plot_path: Optional[str],
) -> None:
    """Derived metrics, verdicts and warnings for each result in FILES.

    Exit 1 when a verdict fails or, with --fail-on unknown (the default), cannot be
    decided; 0 otherwise.
    """
    from vcfg.bench import Slos, analyze_files
    from vcfg.bench import render as bench_render

    slos = Slos(
        tpot_ms=slo_tpot_ms,
        ttft_ms=slo_ttft_ms,
        itl_ms=slo_itl_ms,
        max_failed_pct=max_failed_pct,
        min_goodput_pct=min_goodput_pct,
    )
    analyses = analyze_files(list(files), slos)
    if plot_path:
        from vcfg.bench.plot import plot_distributions

        shown = plot_distributions(analyses, plot_path)
        click.echo(f"wrote {plot_path} ({shown} result(s))", err=True)
    if fmt == "json":
        docs = [a.to_json() for a in analyses]
        echo_json(docs[0] if len(docs) == 1 else docs)
    elif fmt == "markdown":
        click.echo(bench_render.render_markdowns(analyses), nl=False)
    else:
        click.echo(bench_render.render_texts(analyses), nl=False)
    sys.exit(_bench_exit(analyses, fail_on))


@bench.command("compare")
@click.argument("a", type=click.Path(allow_dash=True))
@click.argument("b", type=click.Path(allow_dash=True))
@_slo_options
@click.option(
    "--max-regression-pct",
    type=float,
    default=10.0,
    show_default=True,
    help="B worse than A by more than this (in %, or points for rates) is a regression",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text")
def bench_compare(
    a: str,
    b: str,
    slo_tpot_ms: float,
    slo_ttft_ms: Optional[float],
    slo_itl_ms: Optional[float],
    max_failed_pct: float,
    min_goodput_pct: Optional[float],
    fail_on: str,
    max_regression_pct: float,
    fmt: str,
) -> None:
    """Two results side by side, with the ratio B/A for each metric.

    Exit 1 when B regresses past --max-regression-pct on a metric with a better
    direction, or when B's verdict fails (see --fail-on); 0 otherwise.
    """
    from vcfg.bench import Slos, analyze_files
    from vcfg.bench import render as bench_render
    from vcfg.bench.compare import compare

    slos = Slos(
        tpot_ms=slo_tpot_ms,
        ttft_ms=slo_ttft_ms,
        itl_ms=slo_itl_ms,
        max_failed_pct=max_failed_pct,
        min_goodput_pct=min_goodput_pct,
    )
    sides = []
    for path in (a, b):
        found = analyze_files([path], slos)
        if len(found) != 1:
            raise VcfgError(
                f"{path} holds {len(found)} results; compare takes one per side",
                hint="split the file, or use `vcfg bench analyze` to see them all",
            )
        sides.append(found[0])
    c = compare(sides[0], sides[1], max_regression_pct)
    if fmt == "json":
        echo_json(c.to_json())
    elif fmt == "markdown":
        click.echo(bench_render.render_compare_markdown(c), nl=False)
    else:
        click.echo(bench_render.render_compare_text(c), nl=False)
    sys.exit(EXIT_FINDINGS if c.regressions else _bench_exit([c.b], fail_on))
