"""Dynamo's vLLM workers (``python -m dynamo.vllm``): their vLLM engine options are
linted as ``vllm serve``'s are, Dynamo's own options (vcfg/catalog/data/dynamo-flags.json,
read from the ai-dynamo wheels) are not unknown, and a typo gets a did-you-mean from
both sets.  The real files are tests/corpus's Dynamo launches."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from vcfg.launch.args.entry import DYNAMO_TABLE, _read, dynamo_flags, dynamo_options, outside_serve_flags
from vcfg.lint.engine import lint_paths

CORPUS = Path(__file__).parent / "corpus" / "real"
#: every real corpus file with a `python -m dynamo.vllm` worker (grep dynamo.vllm)
DYNAMO_FILES = sorted(
    str(p.relative_to(CORPUS))
    for p in CORPUS.rglob("*")
    if p.is_file() and "negative" not in p.parts and p.suffix != ".md" and p.name != "annotations.toml"
    if b"dynamo.vllm" in p.read_bytes() or b"vllm_config" in p.read_bytes() and "srt-slurm" in p.parts
)


def lint(path: Path, version: str | None = None):
    res = lint_paths([str(path)], version)
    assert not res.internal_errors, res.internal_errors
    return res


def test_the_corpus_has_the_dynamo_workers():
    assert len(DYNAMO_FILES) >= 7, DYNAMO_FILES


@pytest.mark.parametrize("rel", DYNAMO_FILES)
def test_no_false_finding_on_real_dynamo_workers(rel):
    """Each real file's errors and warnings are the ones annotations.toml pins, each
    read and found true (none is a known false one)."""
    import tomllib

    entry = next(e for e in tomllib.loads((CORPUS / "annotations.toml").read_text())["file"] if e["path"] == rel)
    pinned = entry.get("finding", [])
    assert all(f["verdict"] == "true" for f in pinned)
    res = lint(CORPUS / rel)
    got = sorted((d.code, d.span.line) for d in res.diagnostics if d.severity in ("error", "warning"))
    assert got == sorted((f["code"], f["line"]) for f in pinned)
    assert res.summary.launches >= 1


def test_a_dynamo_workers_options_are_resolved_and_its_own_are_known():
    from vcfg.catalog import store
    from vcfg.launch.args import parse_invocation
    from vcfg.launch.shell import parse_script

    path = CORPUS / "dynamo/dynamo/disagg.sh"
    plan = parse_script(path.read_bytes(), str(path))
    cat = store.load_exact("0.33.0")
    workers = [i for i in plan.invocations if i.kind == "dynamo"]
    assert len(workers) == 2
    pa = parse_invocation(workers[1], cat, plan)
    assert pa.unknown_options == ()
    assert pa.get("enforce_eager").value is True
    assert pa.get("dynamo:disaggregation_mode").value == "prefill"
    assert pa.get("kv_events_config").json.value["endpoint"] == "tcp://*:20081"


def _seeded(tmp_path: Path, rel: str, old: str, new: str) -> tuple[Path, int, int]:
    text = (CORPUS / rel).read_text()
    assert old in text
    k = text.index(old)
    out = tmp_path / Path(rel).name
    out.write_text(text[:k] + new + text[k + len(old) :])
    line = text.count("\n", 0, k) + 1
    col = k - (text.rfind("\n", 0, k) + 1) + 1
    return out, line, col


def test_a_typo_of_a_dynamo_option_is_found_with_did_you_mean(tmp_path):
    p, line, col = _seeded(
        tmp_path, "dynamo/dynamo/disagg.sh", "--disaggregation-mode prefill", "--disagregation-mode prefill"
    )
    got = [(d.code, d.span.line, d.span.col, d.message, d.help) for d in lint(p).diagnostics]
    assert got == [
        ("VC001", line, col, "unknown option `--disagregation-mode`", "did you mean `--disaggregation-mode`?")
    ]


def test_a_typo_of_a_vllm_option_of_a_dynamo_worker_is_found_with_did_you_mean(tmp_path):
    p, line, col = _seeded(tmp_path, "dynamo/dynamo/dep.sh", "--enable-expert-parallel", "--enable-expert-paralel")
    got = [(d.code, d.span.line, d.span.col, d.help) for d in lint(p).diagnostics]
    assert got == [("VC001", line, col, "did you mean `--enable-expert-parallel`?")]


def test_a_dynamo_workers_engine_values_are_checked(tmp_path):
    p, line, col = _seeded(tmp_path, "dynamo/dynamo/dep.sh", "--data-parallel-size 4", "--data-parallel-size four")
    got = [(d.code, d.span.line) for d in lint(p).diagnostics]
    assert ("VC004", line) in got


def test_a_dynamo_option_is_matched_whole_not_by_its_prefix(tmp_path):
    # Dynamo's own parser has allow_abbrev=False (args.py:75 @1.0.2): `--disaggregation`
    # goes to vLLM's parser, which has no such option
    p, line, col = _seeded(
        tmp_path, "dynamo/dynamo/disagg.sh", "--disaggregation-mode prefill", "--disaggregation prefill"
    )
    got = [(d.code, d.span.line, d.span.col) for d in lint(p).diagnostics]
    assert got == [("VC001", line, col)]


def test_vllm_serve_does_not_take_dynamo_options(tmp_path):
    p = tmp_path / "serve.sh"
    p.write_text("vllm serve m --disaggregation-mode prefill\n")
    got = [(d.code, d.span.line, d.span.col) for d in lint(p, "0.33.0").diagnostics]
    assert got == [("VC001", 1, 14)]


def test_the_table_holds_the_options_of_each_release_with_their_place():
    rels = _read(DYNAMO_TABLE)["releases"]
    assert {"0.4.1", "1.0.2", "1.6.1"} <= set(rels)
    old = {s: o for o in dynamo_options("0.4.1") for s in o["options"]}
    new = {s: o for o in dynamo_options("1.6.1") for s in o["options"]}
    assert old["--is-prefill-worker"] == {
        "options": ["--is-prefill-worker"],
        "nargs": "0",
        "loc": "dynamo/vllm/args.py:71",
    }
    assert "--is-prefill-worker" not in new and "--disaggregation-mode" in new
    assert new["--connector"]["nargs"] == "*"
    assert new["--use-vllm-tokenizer"]["options"] == ["--use-vllm-tokenizer", "--no-use-vllm-tokenizer"]
    assert rels["0.9.1"]["parser"] == "shared" and rels["1.0.2"]["parser"] == "separate"
    # facts only: no help text
    assert all(set(o) <= {"options", "nargs", "type", "choices", "loc"} for v in rels for o in dynamo_options(v))
    assert (rels["0.8.0"]["vllm"], rels["1.6.1"]["vllm"]) == ("0.12.0", "0.31.0")  # the wheels' pins
    flags = {s: f for f in dynamo_flags() for s in f.option_strings}
    assert flags["--connector"].nargs == "*" and flags["--is-prefill-worker"].action == "store_true"


WHEELS = Path(os.environ.get("VCFG_DYNAMO_WHEELS", Path.home() / ".cache" / "vcfg" / "dynamo"))


@pytest.mark.skipif(not list(WHEELS.glob("ai_dynamo-*.whl")), reason=f"no ai-dynamo wheels in {WHEELS}")
def test_the_table_is_what_the_wheels_say():
    from vcfg.catalog.extract.dynamo import read_wheel

    rels = _read(DYNAMO_TABLE)["releases"]
    for whl in sorted(WHEELS.glob("ai_dynamo-*.whl")):
        got = read_wheel(str(whl))
        if got["options"]:
            assert zipfile.is_zipfile(whl)
            assert dynamo_options(got["version"]) == got["options"], got["version"]
            assert rels[got["version"]]["vllm"] == got["vllm"], got["version"]


def test_the_api_server_module_of_0_9_0_has_model():
    # engine/arg_utils.py:451-452 @0.9.0 registers --model only outside `vllm serve`
    (f,) = outside_serve_flags("0.9.0")
    assert (f.option_strings, f.type, f.loc.file, f.loc.line) == (["--model"], "str", "vllm/engine/arg_utils.py", 452)
    assert outside_serve_flags("0.9.1") == () and outside_serve_flags("0.33.0") == ()


# --------------------------------------------------------------------------- the Dynamo release from the image


def test_a_worker_has_the_options_of_its_images_dynamo_release(tmp_path):
    # srt-slurm's recipe runs nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.8.0; Dynamo's
    # --disaggregation-mode came with 1.0.0 (dynamo/vllm/backend_args.py:30 @1.0.0)
    old = (
        '      served-model-name: "Qwen/Qwen3-32B"\n      tensor-parallel-size: 2\n      gpu-memory-utilization: 0.90\n'
    )
    rel = "srt-slurm/qwen3-32b-disagg-kv-router.yaml"
    p, line, col = _seeded(tmp_path, rel, old, "      disaggregation-mode: prefill\n" + old)
    col += 6
    got = [(d.code, d.span.line, d.span.col, d.message, d.help) for d in lint(p).diagnostics if d.code == "VC001"]
    assert got == [
        (
            "VC001",
            line,
            col,
            "`--disaggregation-mode` is not an option of Dynamo 0.8.0's vLLM worker",
            "Dynamo 1.0.0 has it (dynamo/vllm/backend_args.py:30 in ai-dynamo 1.0.0); "
            "the image nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.8.0 runs Dynamo 0.8.0",
        )
    ]
    # the recipe as published uses only what 0.8.0 has (its `connector: nixl` is --connector)
    assert [d.code for d in lint(CORPUS / rel).diagnostics if d.code == "VC001"] == []


def test_a_typo_of_a_dynamo_option_is_matched_against_the_images_release(tmp_path):
    rel = "srt-slurm/qwen3-32b-disagg-kv-router.yaml"
    old = (
        '      served-model-name: "Qwen/Qwen3-32B"\n      tensor-parallel-size: 2\n      gpu-memory-utilization: 0.90\n'
    )
    p, line, col = _seeded(tmp_path, rel, old, "      is-prefil-worker: true\n" + old)
    col += 6
    got = [(d.code, d.span.line, d.span.col, d.help) for d in lint(p).diagnostics if d.code == "VC001"]
    assert got == [("VC001", line, col, "did you mean `--is-prefill-worker`?")]


def test_an_image_tag_the_table_lacks_keeps_every_releases_options(tmp_path):
    # semantic-router's workers run vllm-runtime:0.6.1.post1, a tag no ai-dynamo wheel
    # has: the worker's Dynamo release is not known, every release's options are accepted
    rel = "kubernetes/semantic-router/dynamo-graph-deployment.yaml"
    assert [d.code for d in lint(CORPUS / rel).diagnostics] == []
    p, line, col = _seeded(tmp_path, rel, "--is-prefill-worker", "--disaggregation-mode prefill")
    assert [d.code for d in lint(p).diagnostics] == []
    # with a tag the table has (0.6.1), the worker has that release's options only
    p.write_text(p.read_text().replace("vllm-runtime:0.6.1.post1", "vllm-runtime:0.6.1"))
    got = [(d.code, d.span.line, d.span.col, d.help.split(";")[0]) for d in lint(p).diagnostics]
    assert got == [("VC001", line, col, "Dynamo 1.0.0 has it (dynamo/vllm/backend_args.py:30 in ai-dynamo 1.0.0)")]
    # and the file as published is clean under 0.6.1 too (--is-prefill-worker, --connector)
    p.write_text((CORPUS / rel).read_text().replace("vllm-runtime:0.6.1.post1", "vllm-runtime:0.6.1"))
    assert [d.code for d in lint(p).diagnostics] == []


def test_the_nearest_dynamo_release_with_an_option():
    from vcfg.launch.args.entry import nearest_dynamo_with

    # removed after 0.9.x: the last release that had it; added in 1.0.0: the first
    assert nearest_dynamo_with("1.6.1", "--migration-limit")[0] == "0.9.1"
    assert nearest_dynamo_with("0.4.0", "--disaggregation-mode")[0] == "1.0.0"
    assert nearest_dynamo_with("0.8.0", "--no-such-option") is None
    assert nearest_dynamo_with("9.9.9", "--disaggregation-mode") is None
