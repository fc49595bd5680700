"""`vcfg bench analyze` and `vcfg bench compare`: golden outputs, exit codes, errors.

Golden files live in tests/fixtures/bench/golden/; after a deliberate change of the
output, rewrite them with `VCFG_UPDATE_GOLDEN=1 pytest tests/test_bench_cli.py` and
review the diff.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from vcfg.cli.commands import main

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures" / "bench"
GOLDEN = FIX / "golden"
NOTES = "examples/bench/notes-1p1d.txt"
DETAILED = "examples/bench/detailed-1p1d.json"
UPDATE = os.environ.get("VCFG_UPDATE_GOLDEN") == "1"


@pytest.fixture
def run(monkeypatch):
    """Runs vcfg from the repository root, so sources print as relative paths."""
    monkeypatch.chdir(ROOT)

    def _run(*args: str, input: str | None = None):
        return CliRunner().invoke(main, list(args), input=input)

    return _run


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with VCFG_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


FORMATS = {"text": "txt", "json": "json", "markdown": "md"}


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_golden_notes(run, fmt):
    r = run("bench", "analyze", NOTES, "--format", fmt)
    assert r.exit_code == 1, r.output  # 74% of the requests failed
    _golden(f"notes-1p1d.{FORMATS[fmt]}", r.output)


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_golden_detailed(run, fmt):
    r = run(
        "bench",
        "analyze",
        DETAILED,
        "--slo-ttft-ms",
        "1000",
        "--max-failed-pct",
        "5",
        "--format",
        fmt,
    )
    assert r.exit_code == 0, r.output
    _golden(f"detailed-1p1d.{FORMATS[fmt]}", r.output)


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_golden_compare(run, fmt):
    r = run("bench", "compare", NOTES, DETAILED, "--format", fmt)
    assert r.exit_code == 1, r.output  # P99 TPOT 33.03 -> 85.41 ms is a regression
    _golden(f"compare-notes-detailed.{FORMATS[fmt]}", r.output)


def test_text_shows_the_formulas_with_numbers(run):
    out = run("bench", "analyze", NOTES).output
    assert "36.3 tok/s   = 1000 / 27.55 ms" in out
    assert "30.3 tok/s   = 1000 / 33.03 ms" in out
    assert "= 144.97 tok/s / 36.3 tok/s" in out
    assert "= 840.00 tok/s / 36.3 tok/s   vs 27 peak concurrent requests" in out
    assert "= 1702144 tokens / 2811.39 s" in out
    assert "= 605.4 + 145.0" in out
    assert "74.1%" in out and "= 1193 / (417 + 1193)" in out
    assert "PASS  TPOT mean 27.55 ms <= 50 ms   decode node" in out


def test_per_request_text_says_vllm_definition(run):
    out = run("bench", "analyze", DETAILED).output
    assert "vLLM's --goodput definition" in out
    assert "good requests   59 of 62 successful" in out
    assert "request #12" in out


def test_json_is_parseable_and_one_object_per_result(run):
    one = json.loads(run("bench", "analyze", NOTES, "--format", "json").output)
    assert isinstance(one, dict) and one["successful_requests"] == 417
    r = run("bench", "analyze", NOTES, "tests/fixtures/bench/two-runs.log", "--format", "json")
    many = json.loads(r.output)
    assert [d["source"] for d in many] == [
        NOTES,
        "tests/fixtures/bench/two-runs.log#1",
        "tests/fixtures/bench/two-runs.log#2",
    ]
    assert r.exit_code == 1  # the second run fails TPOT (71.30 ms)


def test_exit_1_on_a_failed_verdict(run):
    assert run("bench", "analyze", NOTES, "--slo-tpot-ms", "20").exit_code == 1
    assert run("bench", "analyze", "tests/fixtures/bench/v0.10-result.json").exit_code == 1


def test_stdin(run):
    r = run("bench", "analyze", "-", "--format", "json", input=(ROOT / NOTES).read_text())
    assert r.exit_code == 1 and json.loads(r.output)["source"] == "<stdin>"


@pytest.mark.parametrize("name", ["empty.txt", "invalid.json", "not-a-result.json", "no-report.log", "missing.txt"])
def test_bad_input_exit_2_one_line(run, name):
    r = run("bench", "analyze", f"tests/fixtures/bench/{name}")
    assert r.exit_code == 2
    assert "Traceback" not in r.output
    assert r.output.startswith("vcfg: error: tests/fixtures/bench/")
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_binary_input_exit_2(run, tmp_path):
    p = tmp_path / "blob.png"
    p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    r = run("bench", "analyze", str(p))
    assert r.exit_code == 2 and "binary file" in r.output


def test_bad_slo_exit_2(run):
    r = run("bench", "analyze", NOTES, "--slo-tpot-ms", "-1")
    assert r.exit_code == 2 and "--slo-tpot-ms must be a positive number" in r.output


def test_compare_rows_and_ratios(run):
    doc = json.loads(run("bench", "compare", NOTES, DETAILED, "--format", "json").output)
    rows = {row["metric"]: row for row in doc["rows"]}
    tpot = rows["mean_tpot_ms"]
    b_tpot = json.loads((ROOT / DETAILED).read_text())["mean_tpot_ms"]
    assert tpot["a"] == 27.55 and tpot["b"] == pytest.approx(b_tpot, abs=1e-4)
    assert tpot["ratio"] == pytest.approx(b_tpot / 27.55, abs=1e-4)
    assert tpot["change"] == "worse"  # latency up
    assert rows["failure_rate"]["change"] == "better"
    assert doc["ratio"] == "b / a"
    assert doc["a"]["source"] == NOTES and doc["b"]["source"] == DETAILED


def test_compare_needs_one_result_per_side(run):
    r = run("bench", "compare", NOTES, "tests/fixtures/bench/two-runs.log")
    assert r.exit_code == 2 and "holds 2 results" in r.output


def test_plot_needs_per_request_data(run, tmp_path):
    r = run("bench", "analyze", NOTES, "--plot", str(tmp_path / "p.png"))
    assert r.exit_code == 2 and "needs per-request data" in r.output
    assert not (tmp_path / "p.png").exists()


def test_plot_without_matplotlib_is_a_clear_error(run, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    r = run("bench", "analyze", DETAILED, "--plot", str(tmp_path / "p.png"))
    assert r.exit_code == 2
    assert "--plot needs matplotlib" in r.output and "vcfg[plot]" in r.output


def test_plot_writes_a_png(run, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "dist.png"
    r = run(
        "bench",
        "analyze",
        DETAILED,
        "--slo-ttft-ms",
        "1000",
        "--max-failed-pct",
        "5",
        "--plot",
        str(out),
    )
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
