"""`vcfg lsp` driven over stdio by a real client (tests/lsp_client.py), on a file of each
format vcfg reads: push and pull diagnostics, completion in every position, hover,
code actions applied, settings and release changes, the project's [tool.vcfg], and
hostile input that must never produce a traceback.  Slow: each test starts servers."""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from vcfg.lint.config import LintConfig  # noqa: E402
from vcfg.lint.engine import lint_paths  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from lsp_client import Client, LspError, position_of  # noqa: E402
from test_lint_fuzz import JSON as JSON_VALUES  # noqa: E402
from test_lint_fuzz import WORDS  # noqa: E402

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "examples" / "pd-decode-p2p.sh"
FIX = ROOT / "tests" / "fixtures" / "lsp"


@pytest.fixture
def client(tmp_path):
    clients: list[Client] = []

    def start(**init) -> Client:  # type: ignore[no-untyped-def]
        c = Client(cwd=tmp_path)
        clients.append(c)
        init.setdefault("options", {"vcfg": {"debounceMs": 10}})
        c.initialize(tmp_path, **init)
        return c

    yield start
    for c in clients:
        assert not any("Traceback" in json.dumps(m) for m in c.messages), "a traceback reached the client"
        assert not any("error" in m for m in c.messages if "id" in m and "method" not in m), [
            m for m in c.messages if "error" in m
        ]
        c.kill()


def starts(diags: list[dict]) -> list[tuple[str, int, int]]:  # type: ignore[type-arg]
    return [(d["code"], d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1) for d in diags]


def lint_cli(path: Path, version: str) -> list[tuple[str, int, int]]:
    r = lint_paths([str(path)], version, config=LintConfig())
    return [(d.code, d.span.line, d.span.col) for d in r.diagnostics]


def apply_edits(text: str, edits: list[dict]) -> str:  # type: ignore[type-arg]
    lines = text.split("\n")

    def off(p: dict) -> int:  # type: ignore[type-arg]
        return sum(len(s) + 1 for s in lines[: p["line"]]) + p["character"]

    for e in sorted(edits, key=lambda e: off(e["range"]["start"]), reverse=True):
        a, b = off(e["range"]["start"]), off(e["range"]["end"])
        text = text[:a] + e["newText"] + text[b:]
    return text


# --------------------------------------------------------------------------- each format


@pytest.mark.parametrize(
    "name,version,language",
    [
        ("pd-2p2d-200.sh", "0.13.0", "shellscript"),
        ("serve.yaml", "0.13.0", "yaml"),
        ("serve.yaml", "0.33.0", "yaml"),
        ("decode-deployment.yaml", "0.33.0", "yaml"),
    ],
)
def test_diagnostics_are_those_of_vcfg_lint(client, name, version, language):
    path = FIX / name
    c = client(options={"vcfg": {"vllmVersion": version, "debounceMs": 10}})
    c.open(path.as_uri(), path.read_text(), language)
    assert starts(c.diagnostics(path.as_uri())) == lint_cli(path, version)


def test_pull_diagnostics_for_a_client_that_pulls(client):
    c = client(pull=True, options={"vcfg": {"vllmVersion": "0.33.0"}})
    uri = SEED.as_uri()
    c.open(uri, SEED.read_text())
    assert starts(c.pull(uri)) == lint_cli(SEED, "0.33.0")
    c.change(uri, SEED.read_text() + "vllm serve m --portt 1\n")
    assert ("VC001", 24, 14) in starts(c.pull(uri))
    # a pulling client is not pushed to
    assert not any(m.get("method") == "textDocument/publishDiagnostics" for m in c.messages)


def test_completion_in_each_position_over_the_wire(client):
    c = client(options={"vcfg": {"vllmVersion": "0.13.0", "debounceMs": 10}})
    text = SEED.read_text()
    uri = SEED.as_uri()
    c.open(uri, text)
    # a flag after vllm serve, with its type and default
    line, col = position_of(text, "--gpu-memory-utilization", len("--gpu-mem"))
    got = c.completion(uri, line, col)
    item = next(i for i in got["items"] if i["label"] == "--gpu-memory-utilization")
    assert item["detail"].startswith("float") and "0.9" in item["detail"]
    # the edit replaces the whole option, also the part right of the cursor
    assert item["textEdit"]["range"] == {
        "start": {"line": line, "character": 0},
        "end": {"line": line, "character": len("--gpu-memory-utilization")},
    }
    # a variable after export
    line, col = position_of(text, "VLLM_RPC_TIMEOUT", len("VLLM_RPC"))
    assert "VLLM_RPC_TIMEOUT" in c.labels(uri, line, col)
    # JSON keys and values inside --kv-transfer-config
    line, col = position_of(text, '"kv_role"', 1 + len("kv_r"))
    assert "kv_role" in c.labels(uri, line, col)
    line, col = position_of(text, '"kv_consumer"', 1 + len("kv_"))
    assert set(c.labels(uri, line, col)) == {"kv_producer", "kv_consumer", "kv_both"}
    line, col = position_of(text, '"P2pNcclConnector"', 1 + len("P2p"))
    assert "P2pNcclConnector" in c.labels(uri, line, col)
    line, col = position_of(text, '"proxy_port"', 1 + len("proxy_"))
    assert {"proxy_ip", "proxy_port"} <= set(c.labels(uri, line, col))
    # a value with choices: type a new line
    new = text.replace("--seed 1024 \\\n", "--seed 1024 \\\n--dtype \\\n")
    c.change(uri, new)
    line, col = position_of(new, "--dtype ", len("--dtype "))
    assert "bfloat16" in c.labels(uri, line, col)

    # serve-config keys
    sc = FIX / "serve.yaml"
    st = sc.read_text()
    c.open(sc.as_uri(), st, "yaml")
    line, col = position_of(st, "max-num-seqs", len("max-num"))
    assert "max-num-seqs" in c.labels(sc.as_uri(), line, col)
    line, col = position_of(st, "kv_role", len("kv_r"))
    assert "kv_role" in c.labels(sc.as_uri(), line, col)
    line, col = position_of(st, "backends", len("back"))
    assert "backends" in c.labels(sc.as_uri(), line, col)
    # manifest args
    mf = FIX / "decode-deployment.yaml"
    mt = mf.read_text()
    c.open(mf.as_uri(), mt, "yaml")
    line, col = position_of(mt, "--max-model-len", len("--max-mod"))
    assert "--max-model-len" in c.labels(mf.as_uri(), line, col)
    line, col = position_of(mt, '"NixlConnector"', 1 + len("Nix"))
    assert "NixlConnector" in c.labels(mf.as_uri(), line, col)
    line, col = position_of(mt, "VLLM_LOGGING_LEVEL", len("VLLM_LOGG"))
    assert "VLLM_LOGGING_LEVEL" in c.labels(mf.as_uri(), line, col)


def test_hover_over_the_wire_in_each_format(client):
    c = client(options={"vcfg": {"vllmVersion": "0.13.0"}})
    for path, needle, off, want in [
        (SEED, "--kv-transfer-config", 3, "KVTransferConfig"),
        (SEED, '"kv_buffer_size"', 3, "KVTransferConfig.kv_buffer_size"),
        (FIX / "serve.yaml", "max-num-seqs", 2, "SchedulerConfig.max_num_seqs"),
        (FIX / "decode-deployment.yaml", "--max-model-len", 4, "ModelConfig.max_model_len"),
        (FIX / "decode-deployment.yaml", "VLLM_NIXL_SIDE_CHANNEL_PORT", 4, "vllm/envs.py:"),
    ]:
        text = path.read_text()
        c.open(path.as_uri(), text, "yaml" if path.suffix == ".yaml" else "shellscript")
        line, col = position_of(text, needle, off)
        h = c.hover(path.as_uri(), line, col)
        assert h is not None and want in h["contents"]["value"], (needle, h)
        assert h["range"]["start"]["line"] == line


def test_code_actions_fix_and_fix_all(client):
    c = client(options={"vcfg": {"vllmVersion": "0.33.0", "debounceMs": 10}})
    text = (
        "vllm serve m \\\n"
        "  --kv-transfer-config '{\u201ckv_connector\u201d:\u201cNixlConnector\u201d}' \\\n"
        "  --port 8000 &\n"
    )
    uri = (FIX / "quotes.sh").as_uri()
    c.open(uri, text)
    diags = c.diagnostics(uri)
    assert "VC021" in {d["code"] for d in diags}
    vc021 = [d for d in diags if d["code"] == "VC021"]
    acts = c.code_actions(uri, vc021, only=["quickfix"])
    fix = next(a for a in acts if "disable" not in a["title"])
    assert fix["kind"] == "quickfix" and fix["isPreferred"] is True
    fixed = apply_edits(text, fix["edit"]["changes"][uri])
    assert "\u201c" not in fixed
    v = c.change(uri, fixed)
    assert "VC021" not in {d["code"] for d in c.diagnostics(uri, version=v)}
    # the suppression action on a continued line goes on its own line above the command
    c.change(uri, text)
    diags = c.diagnostics(uri)
    sup = next(a for a in c.code_actions(uri, [d for d in diags if d["code"] == "VC021"]) if "disable" in a["title"])
    edit = sup["edit"]["changes"][uri][0]
    assert edit["range"]["start"] == {"line": 0, "character": 0} and edit["newText"] == "# vcfg: disable=VC021\n"
    # fix all: every safe fix in one edit
    acts = c.code_actions(uri, [], only=["source.fixAll.vcfg"])
    assert len(acts) == 1 and "\u201c" not in apply_edits(text, acts[0]["edit"]["changes"][uri])


def test_settings_change_and_release_per_file(client, tmp_path):
    c = client(options={"vcfg": {"vllmVersion": "0.33.0", "debounceMs": 10}})
    uri = SEED.as_uri()
    c.open(uri, SEED.read_text())
    assert "VC027" in {d["code"] for d in c.diagnostics(uri)}
    c.notify("workspace/didChangeConfiguration", {"settings": {"vcfg": {"vllmVersion": "0.13.0", "debounceMs": 10}}})
    assert "VC027" not in {d["code"] for d in c.diagnostics(uri)}
    # one file back to 0.33.0; the workspace stays on 0.13.0
    other = tmp_path / "other.sh"
    other.write_text(SEED.read_text())
    c.open(other.as_uri(), other.read_text())
    c.diagnostics(other.as_uri())
    assert c.command("vcfg.setRelease", {"version": "0.33.0", "uri": uri})["ok"] is True
    seen: dict[str, set[str]] = {}
    while len(seen) < 2:
        msg = c.notifications.get(timeout=30)
        if msg["method"] == "textDocument/publishDiagnostics":
            seen[msg["params"]["uri"]] = {d["code"] for d in msg["params"]["diagnostics"]}
    assert "VC027" in seen[uri] and "VC027" not in seen[other.as_uri()]
    # a release vcfg has no catalog for: refused, with a reason
    r = c.command("vcfg.setRelease", {"version": "0.1.0"})
    assert r["ok"] is False and "0.1.0" in r["error"]
    assert "0.33.0" in c.command("vcfg.releases")["bundled"]
    # a bad setting is a message, not a failure
    c.notify("workspace/didChangeConfiguration", {"settings": {"vcfg": {"vllmVersion": 7, "debounceMs": -1}}})
    assert c.command("vcfg.stats")["documents"] == 2


def test_settings_asked_from_a_client_that_keeps_them(tmp_path):
    c = Client(cwd=tmp_path)
    try:
        c.configuration = {"vllmVersion": "0.33.0", "debounceMs": 10}
        c.initialize(tmp_path)
        uri = SEED.as_uri()
        c.open(uri, SEED.read_text())
        deadline = 30
        codes: set[str] = set()
        while "VC027" not in codes and deadline > 0:  # the first push may precede the answer
            codes = {d["code"] for d in c.diagnostics(uri)}
            deadline -= 1
        assert "VC027" in codes
        assert any(r["method"] == "workspace/configuration" for r in c.server_requests)
        c.configuration = {"vllmVersion": "0.13.0", "debounceMs": 10}
        c.notify("workspace/didChangeConfiguration", {"settings": None})
        while "VC027" in codes:
            codes = {d["code"] for d in c.diagnostics(uri)}
        assert c.shutdown() == 0
    finally:
        c.kill()


def test_a_config_file_open_in_the_editor_is_read_from_its_buffer(client, tmp_path):
    run = tmp_path / "run.sh"
    run.write_text("vllm serve m --config serve.yaml --port 8000 &\n")
    c = client(options={"vcfg": {"vllmVersion": "0.33.0", "debounceMs": 10}})
    c.open(run.as_uri(), run.read_text())
    assert "VC004" in {d["code"] for d in c.diagnostics(run.as_uri())}  # serve.yaml is not on disk
    yaml_uri = (tmp_path / "serve.yaml").as_uri()
    c.open(yaml_uri, "max-num-seqs: 8\nmax-model-len: 100\nportt: 3\n", "yaml")
    c.change(yaml_uri, "max-num-seqs: 8\nmax-model-len: 100\nport: 3\n")
    seen: dict[str, set[str]] = {}
    while seen.get(run.as_uri()) is None or "VC004" in seen[run.as_uri()]:
        msg = c.notifications.get(timeout=30)
        if msg["method"] == "textDocument/publishDiagnostics":
            seen[msg["params"]["uri"]] = {d["code"] for d in msg["params"]["diagnostics"]}
    assert "VC004" not in seen[run.as_uri()]


def test_a_starter_changed_in_the_editor_relints_the_scripts_it_starts(client, tmp_path):
    """The starter on disk starts nothing; typed into its buffer, it starts both roles,
    and the decode script open beside it gets the finding its deployment gives it."""
    nixl = '\'{"kv_connector":"NixlConnector","kv_role":"kv_producer"}\''
    prefill = f"CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve m --port 8100 --kv-transfer-config {nixl}\n"
    decode = f"CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 --kv-transfer-config {nixl}\n"
    run = "bash prefill.sh &\n./decode.sh &\npython3 toy_proxy_server.py --port 8000 --prefiller-ports 8100 --decoder-ports 8200\n"
    for name, text in (("run.sh", "echo starting nothing yet\n"), ("prefill.sh", prefill), ("decode.sh", decode)):
        (tmp_path / name).write_text(text)
    c = client(options={"vcfg": {"vllmVersion": "0.33.0", "debounceMs": 10}})
    dec, starter = (tmp_path / "decode.sh").as_uri(), (tmp_path / "run.sh").as_uri()
    c.open(dec, decode)
    assert "VC301" not in {d["code"] for d in c.diagnostics(dec)}
    c.open(starter, "echo starting nothing yet\n")
    c.change(starter, run)
    seen: set[str] = set()
    while "VC301" not in seen:  # a publish for decode.sh after the starter's change
        msg = c.notifications.get(timeout=30)
        if msg["method"] == "textDocument/publishDiagnostics" and msg["params"]["uri"] == dec:
            seen = {d["code"] for d in msg["params"]["diagnostics"]}
    assert [d["range"]["start"] for d in msg["params"]["diagnostics"] if d["code"] == "VC301"] == [
        {"line": 0, "character": decode.index('"kv_producer"')}
    ]


def test_project_config_is_read(client, tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.vcfg]\nvllm-version = "0.33.0"\nignore = ["VC103"]\n'
        '[tool.vcfg.per-file-ignores]\n"legacy/*.sh" = ["VC027"]\n'
    )
    (tmp_path / "legacy").mkdir()
    a = tmp_path / "a.sh"
    b = tmp_path / "legacy" / "b.sh"
    for p in (a, b):
        p.write_text(SEED.read_text())
    c = client()
    c.open(a.as_uri(), a.read_text())
    codes = {d["code"] for d in c.diagnostics(a.as_uri())}
    assert "VC027" in codes and "VC103" not in codes  # 0.33.0 from the config, VC103 ignored
    c.open(b.as_uri(), b.read_text())
    assert "VC027" not in {d["code"] for d in c.diagnostics(b.as_uri())}


def test_utf16_positions_after_wide_characters(client):
    c = client(options={"vcfg": {"vllmVersion": "0.33.0", "debounceMs": 10}})
    text = '# 解码节点 🙂\nexport VLLM_RPC_TIMEOUT=1 # 🙂 超时\nvllm serve "模型🙂" --max-model-len 100 --portt 1\n'
    uri = (FIX / "wide.sh").as_uri()
    c.open(uri, text)
    got = {d["code"]: d["range"]["start"] for d in c.diagnostics(uri)}
    # code points: --portt starts at column 37; in UTF-16 the emoji counts twice
    assert got["VC001"] == {"line": 2, "character": 38}
    assert got["VC103"] == {"line": 1, "character": 7}
    h = c.hover(uri, 2, 20)
    assert h is not None and h["range"]["start"]["character"] == 18 and "max_model_len" in h["contents"]["value"]
    assert "--max-model-len" in c.labels(uri, 2, 24)
    # a client that counts code points says so, and gets code points
    c32 = client(encodings=["utf-32"], options={"vcfg": {"vllmVersion": "0.33.0", "debounceMs": 10}})
    assert c32.messages[0]["result"]["capabilities"]["positionEncoding"] == "utf-32"
    c32.open(uri, text)
    assert {d["code"]: d["range"]["start"] for d in c32.diagnostics(uri)}["VC001"] == {"line": 2, "character": 37}


# --------------------------------------------------------------------------- hostile input


HOSTILE = [
    bytes(range(256)).decode("latin-1") * 40,  # binary
    "vllm serve m --max-model-len " + "9" * 300_000 + "\n",  # a huge line
    'vllm serve m --kv-transfer-config \'{"kv_connector":"Nixl\n' * 50,  # unterminated quotes
    "vllm serve m --kv-transfer-config '" + '{"a":' * 5000 + "1" + "}" * 5000 + "'\n",  # deep JSON
    "vllm serve m --kv-transfer-config '" + "[" * 20000 + "'\n",
    'export A="' + "\\" * 10001 + "\n" + "$(" * 3000 + "\n",
    "model: m\nkv-transfer-config: " + "{a: " * 3000 + "\n",  # as YAML too
    "\ud800 lone surrogate \udfff vllm serve m --port \ud83d\n",
    "\r\n".join(["vllm serve m \\"] * 3000),
]


def test_hostile_input_never_reaches_the_client_as_a_traceback(client):
    c = client(options={"vcfg": {"vllmVersion": "0.33.0", "debounceMs": 0}})
    rnd = random.Random(1234)
    for k, text in enumerate(HOSTILE):
        for suffix, lang in ((".sh", "shellscript"), (".yaml", "yaml")):
            uri = (FIX / f"hostile-{k}{suffix}").as_uri()
            c.open(uri, text, lang)
            c.diagnostics(uri, timeout=60)
            lines = text.split("\n")
            for _ in range(4):
                line = rnd.randrange(len(lines))
                col = rnd.randrange(len(lines[line]) + 2)
                c.completion(uri, line, col)
                c.hover(uri, line, col)
            c.code_actions(uri, [])
            c.close_doc(uri)
    assert c.command("vcfg.stats")["documents"] == 0
    assert "Traceback" not in c.stderr


def test_generated_scripts_through_the_server(client):
    """The lint fuzz suite's generators (shell-like words, any JSON in
    --kv-transfer-config), typed one change at a time."""
    hypothesis = pytest.importorskip("hypothesis")
    from hypothesis import strategies as st

    c = client(options={"vcfg": {"vllmVersion": "0.33.0", "debounceMs": 0}})
    uri = (FIX / "typed.sh").as_uri()
    c.open(uri, "")
    c.diagnostics(uri)
    examples = int(os.environ.get("VCFG_FUZZ_EXAMPLES", "60"))

    @hypothesis.settings(max_examples=examples, deadline=None, suppress_health_check=list(hypothesis.HealthCheck))
    @hypothesis.given(st.lists(WORDS, max_size=40), JSON_VALUES)
    def typed(words, value):  # type: ignore[no-untyped-def]
        text = " ".join(words) + "\nvllm serve m --kv-transfer-config '" + json.dumps(value) + "'\n"
        v = c.change(uri, text)
        c.diagnostics(uri, version=v)
        lines = text.split("\n")
        c.completion(uri, len(lines) - 2, len(lines[-2]) - 2)
        c.hover(uri, 0, len(lines[0]) // 2)

    typed()


def test_garbage_on_the_wire_and_shutdown(client):
    c = client()
    c.send_raw(b"Content-Length: 12\r\n\r\n{not json!!}")
    c.send_raw(b'Content-Length: 52\r\n\r\n{"jsonrpc":"2.0","id":99,"method":"nope","params":1}')
    uri = SEED.as_uri()
    c.open(uri, SEED.read_text())
    assert c.diagnostics(uri)
    # requests for documents never opened answer empty
    assert c.hover("file:///nowhere.sh", 0, 0) is None
    assert c.completion("file:///nowhere.sh", 0, 0)["items"] == []
    # parameters of the wrong shape: an InvalidParams answer (pygls alone would not answer)
    for method, params in [("textDocument/hover", {"textDocument": 5}), ("textDocument/completion", {"position": "x"})]:
        with pytest.raises(LspError) as e:
            c.request(method, params, timeout=10)
        assert e.value.error["code"] == -32602 and "Traceback" not in json.dumps(e.value.error)
    c.notify("textDocument/didOpen", {"textDocument": {"uri": 7}})
    assert c.hover(uri, 0, 0) is None  # still serving
    c.messages[:] = [m for m in c.messages if (m.get("error") or {}).get("code") not in (-32601, -32602)]
    assert c.shutdown() == 0
    assert "Traceback" not in c.stderr
