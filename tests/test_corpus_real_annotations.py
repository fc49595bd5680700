"""The real-file corpus (tests/corpus/real/) and its annotations agree.

This checks the data only, not vcfg: every file in the folder has exactly one
``[[file]]`` entry in annotations.toml and every entry names a file that exists; each
entry has its provenance (repository, path, a 40-hex commit, a licence that allows
redistribution) and a known format; each launch has a known kind and a line inside
the file, and the option names, model and release it names are written in the file
(so a typo in an annotation is caught here, before a reader test trusts it); and the
corpus meets the sizes its issues ask for (README.md in the folder).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import tomllib

REAL = Path(__file__).parent / "corpus" / "real"
ANNOTATIONS = REAL / "annotations.toml"
NOT_CORPUS = {"annotations.toml", "README.md"}

LICENCES = {"Apache-2.0", "MIT", "BSD-2-Clause", "BSD-3-Clause"}
#: formats a vLLM launch can be written in (issue 13); every one needs 3+ positive files
FORMATS = (
    "bash",
    "serve-config",
    "kubernetes",
    "kustomize",
    "helm-values",
    "compose",
    "docker-run",
    "dockerfile",
    "ray-serve",
    "skypilot",
    "github-actions",
    "srt-slurm",
    "markdown",
    "rst",
    "dynamo",
)
#: further formats only negative files have (configs that hold no launch at all)
NEGATIVE_FORMATS = ("app-config", "openapi")
KINDS = {"serve", "dynamo-worker", "router", "proxy", "bench"}
FILE_KEYS = {
    "path": str,
    "repo": str,
    "source_path": str,
    "commit": str,
    "licence": str,
    "format": str,
    "trimmed": bool,
    "multinode": bool,
    "negative": bool,
}
OPTIONAL_FILE_KEYS = {"note": str, "launch": list, "finding": list}
LAUNCH_KEYS = {"kind": str, "line": int}
OPTIONAL_LAUNCH_KEYS = {
    "release": str,
    "model": str,
    "flags": list,
    "values": dict,
    "env": list,
    "note": str,
}
#: formats whose option names are not written as such in the file: a chart template
#: renders them from values keys (helm-values)
FLAGS_RENDERED = {"helm-values"}


def _load() -> list[dict]:
    with ANNOTATIONS.open("rb") as f:
        return tomllib.load(f)["file"]


FILES = _load()


def _ids(entries: list[dict]) -> list[str]:
    return [e.get("path", "?") for e in entries]


def test_every_file_is_annotated_once_and_every_annotation_has_its_file():
    listed = [e["path"] for e in FILES]
    assert len(listed) == len(set(listed)), [p for p, n in Counter(listed).items() if n > 1]
    on_disk = {
        p.relative_to(REAL).as_posix()
        for p in REAL.rglob("*")
        if p.is_file() and p.relative_to(REAL).as_posix() not in NOT_CORPUS
    }
    assert sorted(on_disk - set(listed)) == [], "files without an annotation"
    assert sorted(set(listed) - on_disk) == [], "annotations without a file"


@pytest.mark.parametrize("entry", FILES, ids=_ids(FILES))
def test_entry_is_well_formed(entry):
    for key, typ in FILE_KEYS.items():
        assert key in entry, f"missing {key}"
        assert isinstance(entry[key], typ), f"{key} should be {typ.__name__}"
    unknown = set(entry) - set(FILE_KEYS) - set(OPTIONAL_FILE_KEYS)
    assert not unknown, f"unknown keys {sorted(unknown)}"
    assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"]), entry["commit"]
    assert entry["licence"] in LICENCES
    assert re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", entry["repo"])
    assert not entry["source_path"].startswith("/")
    if entry["trimmed"]:
        assert entry.get("note"), "a trimmed file says in its note what was cut"
    for f in entry.get("finding", []):
        assert set(f) == {"code", "line", "verdict", "note"}, f"a finding has code, line, verdict, note: {f}"
        assert re.fullmatch(r"VC[0-9]{3}", f["code"]) and isinstance(f["line"], int) and f["line"] >= 1, f
        assert f["verdict"] in ("true", "false-known") and f["note"].strip(), f
    launches = entry.get("launch", [])
    if entry["negative"]:
        assert entry["format"] in FORMATS + NEGATIVE_FORMATS
        assert launches == [], "a negative file holds no launch"
        assert not entry["multinode"]
    else:
        assert entry["format"] in FORMATS
        assert launches, "a positive file holds at least one launch"


def _launch_cases() -> list[tuple[dict, dict]]:
    return [(e, launch) for e in FILES for launch in e.get("launch", [])]


LAUNCHES = _launch_cases()


@pytest.mark.parametrize("entry,launch", LAUNCHES, ids=[f"{e['path']}:{la.get('line')}" for e, la in LAUNCHES])
def test_launch_is_well_formed_and_points_into_the_file(entry, launch):
    for key, typ in LAUNCH_KEYS.items():
        assert isinstance(launch.get(key), typ), f"launch needs {key} ({typ.__name__})"
    for key, typ in OPTIONAL_LAUNCH_KEYS.items():
        if key in launch:
            assert isinstance(launch[key], typ), f"{key} should be {typ.__name__}"
    unknown = set(launch) - set(LAUNCH_KEYS) - set(OPTIONAL_LAUNCH_KEYS)
    assert not unknown, f"unknown launch keys {sorted(unknown)}"
    assert launch["kind"] in KINDS
    text = (REAL / entry["path"]).read_text(encoding="utf-8")
    lines = text.splitlines()
    assert 1 <= launch["line"] <= len(lines)
    line = lines[launch["line"] - 1].strip()
    assert line and not line.startswith("#"), f"line {launch['line']} is empty or a comment"
    flags = launch.get("flags", [])
    for flag in flags + list(launch.get("values", {})) + launch.get("env", []):
        assert isinstance(flag, str) and flag
    for flag in flags:
        assert flag.startswith("-"), flag
        if entry["format"] not in FLAGS_RENDERED:
            # written as is, or as a YAML key without the dashes (serve-config, srt-slurm)
            assert flag in text or flag.lstrip("-") in text, f"{flag} is not in the file"
    for flag, value in launch.get("values", {}).items():
        assert flag in flags, f"values names {flag}, which flags does not list"
        assert isinstance(value, str)
    for name in launch.get("env", []):
        assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name), name
    if "release" in launch:
        assert re.fullmatch(r"\d+\.\d+\.\d+", launch["release"]), launch["release"]
        assert launch["release"] in text, "the release is stated in the file"
    if "model" in launch:
        # the model as vLLM receives it; its last path component is written in the file
        assert launch["model"].rsplit("/", 1)[-1] in text, launch["model"]


def test_launch_lines_are_distinct_within_a_file():
    for entry in FILES:
        lines = [la["line"] for la in entry.get("launch", [])]
        assert len(lines) == len(set(lines)), entry["path"]


def _summary() -> dict:
    positive = [e for e in FILES if not e["negative"]]
    negative = [e for e in FILES if e["negative"]]
    return {
        "positive": len(positive),
        "positive_projects": len({e["repo"] for e in positive}),
        "per_format": Counter(e["format"] for e in positive),
        "multinode": sum(e["multinode"] for e in positive),
        "negative": len(negative),
        "negative_projects": len({e["repo"] for e in negative}),
    }


def test_corpus_meets_the_sizes_the_issues_ask_for():
    s = _summary()
    assert s["positive"] >= 80, s
    assert s["positive_projects"] >= 12, s
    thin = {f: s["per_format"].get(f, 0) for f in FORMATS if s["per_format"].get(f, 0) < 3}
    assert not thin, f"formats with fewer than 3 positive files: {thin}"
    assert s["multinode"] >= 10, s
    assert s["negative"] >= 30, s
    assert s["negative_projects"] >= 8, s
