"""Reads `vllm bench serve` results (text report or --save-result JSON) and judges them.

parse.load -> BenchResult (model.py) -> metrics.analyze -> Analysis -> render / to_json.
"""

from __future__ import annotations

from vcfg.bench.metrics import Analysis, analyze
from vcfg.bench.parse import load, loads
from vcfg.bench.slo import Slos


def analyze_files(paths: list[str], slos: Slos) -> list[Analysis]:
    """One analysis per result found in the files, in order."""
    return [analyze(result, slos) for path in paths for result in load(path)]


__all__ = ["Analysis", "Slos", "analyze", "analyze_files", "load", "loads"]
