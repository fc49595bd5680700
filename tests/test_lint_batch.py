"""A lint of many files split over processes (vcfg/lint/batch.py) prints what one
process prints: the same findings in the same order, the same summary, with a
deployment whose members fall into different slices and launches whose images name
their own releases."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from vcfg.lint import batch
from vcfg.lint.engine import lint_paths

CORPUS = Path(__file__).parent / "corpus"

# a starter in the first slice that runs two scripts of the last slice, whose ports
# collide (a run-scope finding, VC302, found only when the three are one deployment)
STARTER = "#!/bin/bash\nbash zz-prefill.sh &\nbash zz-decode.sh &\nwait\n"
PREFILL = "#!/bin/bash\nvllm serve Qwen/Qwen3-8B --port 8100 --max-num-seqs 64\n"
DECODE = "#!/bin/bash\nvllm serve Qwen/Qwen3-8B --port 8100 --max-num-seqs 128\n"


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "scripts"
    root.mkdir()
    (root / "aa-start.sh").write_text(STARTER)
    (root / "zz-prefill.sh").write_text(PREFILL)
    (root / "zz-decode.sh").write_text(DECODE)
    for sub in ("shell", "seeded"):
        for src in sorted((CORPUS / sub).glob("*.sh"))[:24]:
            (root / sub).mkdir(exist_ok=True)
            shutil.copy(src, root / sub / src.name)
    for src in sorted((CORPUS / "real").rglob("*.sh")):
        dst = root / "real" / src.relative_to(CORPUS / "real")
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, dst)
    return root


def _view(r):  # type: ignore[no-untyped-def]
    return (
        [(d.code, d.severity, d.span.position(), d.message, d.help, d.notes) for d in r.diagnostics],
        r.summary.files,
        r.summary.launches,
        r.summary.vllm_version,
        r.summary.version_note,
        r.summary.releases,
        dict(r.summary.counts),
        r.internal_errors,
        r.path_errors,
    )


@pytest.mark.parametrize("version", ["0.33.0", None])
def test_a_split_batch_equals_one_process(tmp_path, monkeypatch, version):
    root = _tree(tmp_path)
    monkeypatch.setattr(batch, "MIN_FILES", 8)
    monkeypatch.setenv("VCFG_JOBS", "1")
    one = lint_paths([str(root)], version)
    monkeypatch.setenv("VCFG_JOBS", "3")
    split_calls = []
    real_split = batch.lint_split
    monkeypatch.setattr(batch, "lint_split", lambda *a: split_calls.append(a[3]) or real_split(*a))
    split = lint_paths([str(root)], version)
    assert split_calls == [3]
    assert _view(split) == _view(one)
    codes = {(Path(d.span.file).name, d.code) for d in one.diagnostics}
    assert ("zz-prefill.sh", "VC302") in codes  # the deployment's members are in two slices
    if version is None:  # launches whose images name their own release
        assert one.summary.version_note and "from their images or pins" in one.summary.version_note
    # the full report reads the sources of the files with findings
    shown = {d.span.file for d in one.diagnostics}
    assert {k: v for k, v in split.sources.items() if k in shown} == {k: one.sources[k] for k in shown}


def test_a_batch_with_a_serve_config_is_not_split(tmp_path, monkeypatch):
    root = _tree(tmp_path)
    shutil.copy(CORPUS / "clean" / "serve-config-0.13.0.yaml", root / "serve-config.yaml")
    monkeypatch.setattr(batch, "MIN_FILES", 8)
    monkeypatch.setenv("VCFG_JOBS", "2")
    from vcfg.lint.engine import expand_paths_report

    files = expand_paths_report([str(root)])[0]
    assert batch.jobs(files, None, None) == 1  # a script of another slice may name it with --config
    assert batch.jobs([f for f in files if f.endswith(".sh")], None, None) == 2
    assert batch.jobs([f for f in files if f.endswith(".sh")], {"x": b""}, None) == 1  # --fix / --diff
