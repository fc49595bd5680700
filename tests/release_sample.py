"""Which vLLM releases the slow per-release tests run (fidelity against vLLM's parser,
env-var defaults, extraction): every bundled release, as pytest params.

A release runs when its source is already extracted in the cache
(``$VCFG_CACHE_DIR/vllm-src/<v>``), when it is in SAMPLE, or when ``VCFG_FIDELITY=all``;
any other is skipped with the reason, since on an empty cache each one costs a wheel
download (about 300 MB, 6-10 s here) before its test can start (docs/fidelity.md,
"Which releases run").
"""

from __future__ import annotations

import os

import pytest

from vcfg.catalog.local import cache_dir
from vcfg.catalog.releases import BUNDLED_RELEASES

#: what CI runs on an empty cache: both ends, the 0.8 era before `@config` (0.8.0) and
#: its last patch (0.8.5.post1), the 0.9 series, 0.10.0 (the patch release of issue
#: #21), a four-part number (0.10.1.1), and the releases the slow suite always covered
SAMPLE = ("0.8.0", "0.8.5.post1", "0.9.0", "0.9.2", "0.10.0", "0.10.1.1", "0.10.2", "0.11.2",
          "0.20.2", "0.33.0")  # fmt: skip


def cached(version: str) -> bool:
    return (cache_dir() / "vllm-src" / version / "vllm" / "envs.py").is_file()


def release_params(versions=BUNDLED_RELEASES, cannot_run=None, known=None):  # type: ignore[no-untyped-def]
    """``versions`` as pytest params; ``cannot_run`` maps a release to why it never runs,
    ``known`` to a difference that is understood and not fixed (a strict xfail)."""
    every = os.environ.get("VCFG_FIDELITY") == "all"
    out = []
    for v in versions:
        marks = []
        if cannot_run and v in cannot_run:
            marks.append(pytest.mark.skip(reason=cannot_run[v]))
        elif not (every or v in SAMPLE or cached(v)):
            marks.append(
                pytest.mark.skip(
                    reason=f"vllm {v} is not in the cache and not in the "
                    "sample; VCFG_FIDELITY=all downloads and runs it"
                )
            )
        if known and v in known:
            marks.append(pytest.mark.xfail(strict=True, reason=known[v]))
        out.append(pytest.param(v, marks=marks, id=v))
    return out
