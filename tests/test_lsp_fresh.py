"""The language server's diagnostics after each change equal a fresh `vcfg lint` of the
same text: one server over stdio, a series of edits to a 200-line script (a value, a
typo'd flag, a comment, a removed launch, a pin naming another release, a plugin named
by VLLM_PLUGINS), a release switch, and a plugin named by the project config.  Whatever
the server keeps between lints (parsed launches, catalogs, indexes, per-buffer caches)
must never show in what it publishes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

sys.path.insert(0, str(Path(__file__).parent))
from lsp_client import Client  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "fixtures" / "lsp" / "pd-2p2d-200.sh"
KV = '{"kv_connector":"MooncakeConnectorV1","kv_role":"kv_producer"}'


def fresh(path: Path, cwd: Path, version: str | None, process: bool = False) -> list[tuple[object, ...]]:
    """What `vcfg lint` reports for ``path``, as (code, line, col, end line, end col,
    severity, message): in this process (which shares nothing with the server's), or
    in a new one (``process``: no cache of any kind)."""
    if not process:
        from vcfg.lint.config import load_config
        from vcfg.lint.engine import lint_paths

        r = lint_paths([str(path)], version, config=load_config(path.parent))
        return sorted(
            (d.code, d.span.line, d.span.col, d.span.end_line, d.span.end_col, d.severity, d.message)
            for d in r.diagnostics
        )
    cmd = [sys.executable, "-m", "vcfg", "lint", "--format", "json", str(path)]
    if version:
        cmd[4:4] = ["--vllm-version", version]
    env = {k: v for k, v in os.environ.items() if not k.startswith("VCFG_")}
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env)
    assert r.returncode in (0, 1), r.stderr
    return sorted(
        (d["code"], d["line"], d["column"], d["end_line"], d["end_column"], d["severity"], d["message"])
        for d in json.loads(r.stdout)["diagnostics"]
    )


def served(diags: list[dict]) -> list[tuple[object, ...]]:  # type: ignore[type-arg]
    sev = {1: "error", 2: "warning", 3: "info"}
    out = []
    for d in diags:
        if d.get("code") == "config":
            continue
        a, b = d["range"]["start"], d["range"]["end"]
        msg = d["message"].split("\nhelp: ")[0].split("\nnote: ")[0]
        out.append(
            (d["code"], a["line"] + 1, a["character"] + 1, b["line"] + 1, b["character"] + 1, sev[d["severity"]], msg)
        )
    return sorted(out)


def edits(text: str) -> list[tuple[str, str]]:
    """(what, the new whole text) for each step, each from the one before; the
    plugin's steps are checked for its findings by the test."""
    steps = []
    lines = text.split("\n")
    i = next(k for k, s in enumerate(lines) if "--max-num-seqs" in s)
    lines[i] = lines[i].replace("--max-num-seqs", "--max-num-seqs 100000 --max-num-seqz", 1)
    steps.append(("a typo'd flag and a value", "\n".join(lines)))
    j = next(k for k, s in enumerate(lines) if s.startswith("#") and k > 2)
    lines[j] = lines[j] + " typed in a comment"
    steps.append(("a comment", "\n".join(lines)))
    # before every launch and finding, after characters of two UTF-16 units (the
    # findings' columns are the client's): the last lint moved, then lines split and joined
    lines[1] = "# é😀 " + lines[1][2:]
    steps.append(("multi-byte characters in a comment before the launches", "\n".join(lines)))
    lines[1] = lines[1] + " x"
    steps.append(("a character typed after them", "\n".join(lines)))
    lines[1:2] = [lines[1][:20], "# " + lines[1][20:]]
    steps.append(("a comment line split in two", "\n".join(lines)))
    lines[1:3] = [lines[1] + lines[2][2:]]
    steps.append(("the two joined again", "\n".join(lines)))
    lines[j] = lines[j] + "; see VLLM_PORT"
    steps.append(("a comment naming a variable", "\n".join(lines)))
    k = next(k for k, s in enumerate(lines) if "--seed" in s)
    lines[k] = lines[k].replace("--seed", "--seed 7 --port 8100 --seed", 1)
    steps.append(("a second value on another launch", "\n".join(lines)))
    lines.extend(["serve_extra() {", "  vllm serve m --port 8200 --max-num-seqz 1", "}", "serve_extra", "echo done"])
    steps.append(("a launch in a function called at the end", "\n".join(lines)))
    # the same length: nothing after it moves, but the call reads the new body
    lines[-4] = lines[-4].replace("--max-num-seqz", "--max-num-seqx")
    steps.append(("the function's body changed in place", "\n".join(lines)))
    lines[-1] = "echo done."
    steps.append(("a character typed at the end", "\n".join(lines)))
    lines.insert(1, "pip install vllm==0.10.2")
    steps.append(("a pin naming another release", "\n".join(lines)))
    del lines[1]
    lines.insert(1, "export VLLM_PLUGINS=ascend,ascend_kv_connector\nexport VLLM_ASCEND_ENABLE_MLAPO=maybe")
    lines.append(f"vllm serve m --port 8999 --kv-transfer-config '{KV}'")
    steps.append(("a plugin named by VLLM_PLUGINS, and a launch using its connector", "\n".join(lines)))
    del lines[1]
    steps.append(("the plugin no longer named", "\n".join(lines)))
    return steps


def test_diagnostics_after_each_change_equal_a_fresh_lint(tmp_path):
    path = tmp_path / "pd.sh"
    text = SCRIPT.read_text()
    path.write_text(text)
    c = Client(cwd=tmp_path)
    try:
        c.initialize(tmp_path, options={"vcfg": {"debounceMs": 0}})
        uri = path.as_uri()
        c.open(uri, text)
        got = served(c.diagnostics(uri))
        assert got == fresh(path, tmp_path, None) == fresh(path, tmp_path, None, process=True) and got
        reads: dict[str, object] = {}
        moved: dict[str, int] = {}
        for what, new in edits(text):
            path.write_text(new)
            got = served(c.diagnostics(uri, version=c.change(uri, new)))
            assert got == fresh(path, tmp_path, None), what
            stats = c.command("vcfg.stats")
            reads[what] = stats["reads"][uri]
            moved[what] = stats["moved"][uri]
            plugin_var = ("VC102", 3, 33) in {d[:3] for d in got}
            assert plugin_var == what.startswith("a plugin named"), what
        codes = {d[0] for d in got}
        assert "VC001" in codes  # the typo'd flag is still there
        # the script was resumed where it changed, and read no further where it could
        # be (vcfg/launch/shell_reuse.py): the comment's and the value's reads took the
        # rest over; the function's changed body made its call run again
        # an edit inside a comment line was the last lint moved (vcfg/lint/comment_reuse.py),
        # one that split or joined lines was linted in full
        steps = list(moved)
        gained = {w: moved[w] - moved[steps[k - 1]] for k, w in enumerate(steps) if k}
        assert gained["a comment"] == gained["multi-byte characters in a comment before the launches"] == 1, moved
        assert gained["a character typed after them"] == gained["a comment naming a variable"] == 1, moved
        assert gained["a comment line split in two"] == gained["the two joined again"] == 0, moved
        assert reads["a second value on another launch"][3] is not None, reads
        assert reads["the function's body changed in place"][3] is None, reads
        assert reads["a character typed at the end"][1] > 30, reads

        # the release switched for the workspace, then back to the default
        for version in ("0.23.0", "0.13.0"):
            assert c.command("vcfg.setRelease", {"version": version})["ok"] is True
            got = served(c.diagnostics(uri))
            assert got == fresh(path, tmp_path, version), version
            new = path.read_text().replace("--max-num-seqz", "--max-num-seqq", 1)
            path.write_text(new)
            got = served(c.diagnostics(uri, version=c.change(uri, new)))
            assert got == fresh(path, tmp_path, version), version

        # the project config names the plugin (the server re-reads a saved config)
        assert c.command("vcfg.setRelease", {"version": None})["ok"] is True
        c.diagnostics(uri)
        conf = tmp_path / ".vcfg.toml"
        conf.write_text('vllm-version = "0.23.0"\nplugins = ["vllm-ascend"]\n')
        new = "export VLLM_ASCEND_ENABLE_MLAPO=maybe\n" + path.read_text()
        path.write_text(new)
        c.notify("textDocument/didSave", {"textDocument": {"uri": conf.as_uri()}})
        got = served(c.diagnostics(uri, version=c.change(uri, new)))
        assert got == fresh(path, tmp_path, None) == fresh(path, tmp_path, None, process=True)
        assert "VC102" in {d[0] for d in got}  # the plugin's variable judged
        assert c.shutdown() == 0
    finally:
        c.kill()
