"""A PNG of the TTFT and TPOT distributions with the SLO lines, from per-request data.

matplotlib is an optional extra (`pip install 'vcfg[plot]'`); it is imported only here,
only when a plot is asked for.
"""

from __future__ import annotations

from typing import Any

from vcfg.bench.metrics import Analysis
from vcfg.errors import VcfgError

NO_DATA_HINT = "run `vllm bench serve` with --save-result --save-detailed and pass that JSON"


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise VcfgError(
            "--plot needs matplotlib, which is not installed",
            hint="pip install 'vcfg[plot]'",
        ) from None
    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    return plt


def plot_distributions(analyses: list[Analysis], path: str) -> int:
    """Writes the figure; returns how many results it shows."""
    usable = [a for a in analyses if a.per_request is not None and a.per_request.successful]
    if not usable:
        raise VcfgError("--plot needs per-request data, and no input has it", hint=NO_DATA_HINT)
    plt = _pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    panels = (
        ("ttft", "TTFT (ms)", "prefill node", lambda a: a.per_request.ttfts_s),
        ("tpot", "TPOT (ms)", "decode node", lambda a: a.per_request.tpots_s),
    )
    slos = dict(usable[0].slos.items())
    for ax, (metric, label, node, values) in zip(axes, panels):
        for a in usable:
            data = [v * 1000.0 for v in values(a)]
            if data:
                ax.hist(data, bins=40, alpha=0.55, label=f"{a.result.source} (n={len(data)})")
        if metric in slos:
            ax.axvline(slos[metric], color="red", linestyle="--", label=f"SLO {slos[metric]:g} ms")
        ax.set_title(f"{label.split(' ')[0]} distribution ({node})")
        ax.set_xlabel(label)
        ax.set_ylabel("requests")
        ax.legend(fontsize="small")
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=110)
    except OSError as e:
        raise VcfgError(f"cannot write {path}: {e.strerror or e}") from None
    finally:
        plt.close(fig)
    return len(usable)
