"""The language server's pieces without the wire: what the cursor is on, completion
items, hover text, in-memory lint; and one real session over stdio on the seed
script (tests/test_lsp_server.py has the rest of the end-to-end tests, marked slow)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from vcfg.lint.config import LintConfig  # noqa: E402
from vcfg.lint.engine import lint_paths, lint_text, make_target  # noqa: E402
from vcfg.lsp import completion, context, hover  # noqa: E402
from vcfg.lsp.documents import LineMap, uri_to_path  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from lsp_client import Client, position_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "examples" / "pd-decode-p2p.sh"
FIX = ROOT / "tests" / "fixtures" / "lsp"


@pytest.fixture(scope="module")
def t13():
    return make_target("0.13.0", LintConfig())


@pytest.fixture(scope="module")
def t33():
    return make_target("0.33.0", LintConfig())


def cursor(text: str, style: str, target) -> context.Cursor:  # type: ignore[no-untyped-def]
    """The cursor at the end of ``text``."""
    lines = text.split("\n")
    return context.at(lines, len(lines) - 1, len(lines[-1]), style, completion.json_flags(target.catalog))


def labels(text: str, style: str, target) -> list[str]:  # type: ignore[no-untyped-def]
    lines = text.split("\n")
    c = cursor(text, style, target)
    items, _ = completion.complete(c, target, lines, len(lines) - 1)
    return [i.label for i in items]


# --------------------------------------------------------------------------- lint from memory


def test_lint_text_matches_lint_paths_on_the_seed(t33):
    data = SEED.read_bytes()
    mem = lint_text(str(SEED), data, t33)
    disk = lint_paths([str(SEED)], "0.33.0", config=LintConfig())
    assert [d.to_json() for d in mem.diagnostics] == [d.to_json() for d in disk.diagnostics]
    assert {d.code for d in mem.diagnostics} >= {"VC103", "VC027", "VC023"}


def test_lint_text_reads_the_buffer_not_the_file(tmp_path, t33):
    f = tmp_path / "serve.yaml"
    f.write_text("model: m\nport: 8000\nmax-model-len: 1000\n")
    # the unsaved buffer has a typo the file on disk does not: a serve config is its
    # own --config, so the typo must come from the buffer
    r = lint_text(str(f), b"model: m\nport: 8000\nmax-model-lenn: 1000\n", t33)
    assert [(d.code, d.span.line, d.span.col) for d in r.diagnostics] == [("VC001", 3, 1)]
    # a file that does not exist at all
    r = lint_text(str(tmp_path / "new.sh"), b"vllm serve m --tensor-paralel-size 2\n", t33)
    assert [(d.code, d.span.line, d.span.col) for d in r.diagnostics] == [("VC001", 1, 14)]


def test_lint_text_reads_the_other_deployment_files_from_their_buffers(tmp_path, t33):
    """The scripts of a script's deployment are the editor's buffers, unsaved changes
    included: here the starter on disk starts nothing, its buffer starts both roles."""
    nixl = '\'{"kv_connector":"NixlConnector","kv_role":"kv_producer"}\''
    run = "bash prefill.sh &\n./decode.sh &\npython3 toy_proxy_server.py --port 8000 --prefiller-ports 8100 --decoder-ports 8200\n"
    prefill = f"CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve m --port 8100 --kv-transfer-config {nixl}\n"
    decode = f"CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 --kv-transfer-config {nixl}\n"
    (tmp_path / "run.sh").write_text("echo starting nothing yet\n")
    (tmp_path / "prefill.sh").write_text(prefill)
    path = str(tmp_path / "decode.sh")
    (tmp_path / "decode.sh").write_text(decode)

    def found(others):  # type: ignore[no-untyped-def]
        r = lint_text(path, decode.encode(), t33, others)
        return [(d.code, d.span.line, d.span.col) for d in r.diagnostics if d.severity != "info"]

    assert found(None) == []  # on disk, nothing starts decode.sh: no proxy sends it decodes
    wrong = [("VC301", 1, decode.index('"kv_producer"') + 1)]
    assert found({str(tmp_path / "run.sh"): run.encode()}) == wrong
    # the prefill's buffer, not the disk, is read too: moved to decode's port, the
    # proxy's decoder upstream is two servers and no role is judged, as when saved
    moved = prefill.replace("--port 8100", "--port 8200")
    assert found({str(tmp_path / "run.sh"): run.encode(), str(tmp_path / "prefill.sh"): moved.encode()}) == []
    (tmp_path / "run.sh").write_text(run)
    (tmp_path / "prefill.sh").write_text(moved)
    assert found(None) == []


# --------------------------------------------------------------------------- cursor and completion


def test_flags_after_vllm_serve_with_types_and_defaults(t33):
    c = cursor("nohup vllm serve m \\\n  --port 8000 \\\n  --max-model", "bash", t33)
    assert (c.kind, c.prefix, c.start) == ("flag", "--max-model", 2)
    lines = ["vllm serve m --max-num-s"]
    items, _ = completion.complete(cursor(lines[0], "bash", t33), t33, lines, 0)
    seqs = next(i for i in items if i.label == "--max-num-seqs")
    assert seqs.detail.startswith("int") and "ModelConfig" not in seqs.detail
    assert "SchedulerConfig.max_num_seqs" in seqs.doc and "arg_utils.py:" in seqs.doc
    # not a launch: nothing
    assert labels("echo --max-mo", "bash", t33) == []
    assert labels("# vllm serve m --max-mo", "bash", t33) == []


def test_values_where_there_are_choices(t33):
    got = labels("vllm serve m --dtype ", "bash", t33)
    assert {"auto", "bfloat16", "float16"} <= set(got)
    assert labels("vllm serve m --dtype=bf", "bash", t33) == ["bfloat16"]
    assert labels("vllm serve m --port ", "bash", t33) == []


def test_variable_names_after_export(t33):
    c = cursor("export VLLM_HOST_", "bash", t33)
    assert (c.kind, c.prefix, c.start) == ("env_name", "VLLM_HOST_", 7)
    assert "VLLM_HOST_IP" in labels("export VLLM_HOST_", "bash", t33)
    assert "VLLM_HOST_IP" in labels("VLLM_HOST_", "bash", t33)  # a prefix assignment
    # plugin variables from the knowledge packs
    assert "USE_FLAGGEMS" in labels("export USE_FLAG", "bash", t33)


def test_json_keys_connectors_roles_and_extra_keys(t13):
    base = "vllm serve m --kv-transfer-config '{"
    c = cursor(base + '"kv_r', "bash", t13)
    assert (c.kind, c.prefix, c.in_string, c.path) == ("json_key", "kv_r", True, ())
    assert "kv_role" in labels(base + '"kv_r', "bash", t13)
    assert "P2pNcclConnector" in labels(base + '"kv_connector":"P2p', "bash", t13)
    assert set(labels(base + '"kv_role":"kv_', "bash", t13)) == {"kv_producer", "kv_consumer", "kv_both"}
    extra = labels(base + '"kv_connector":"P2pNcclConnector","kv_connector_extra_config":{"', "bash", t13)
    assert {"proxy_ip", "proxy_port", "http_port"} <= set(extra)
    # the connector written after the cursor counts too
    lines = [
        'vllm serve m --kv-transfer-config \'{"kv_connector_extra_config":{"',
        '}, "kv_connector":"NixlConnector"}\'',
    ]
    c = context.at(lines, 0, len(lines[0]), "bash", completion.json_flags(t13.catalog))
    items, _ = completion.complete(c, t13, lines, 0)
    assert "backends" in [i.label for i in items]
    # a key typed without its quote gets one; in a double-quoted shell word an escaped one
    c = cursor(base + '"kv_role":"kv_both",', "bash", t13)
    items, _ = completion.complete(c, t13, [""], 0)
    assert next(i for i in items if i.label == "kv_connector").insert == '"kv_connector"'
    c = cursor('vllm serve m --kv-transfer-config "{', "bash", t13)
    items, _ = completion.complete(c, t13, [""], 0)
    assert next(i for i in items if i.label == "kv_connector").insert == '\\"kv_connector\\"'


def test_serve_config_yaml_keys_and_nested_json(t33):
    assert "max-model-len" in labels("model: m\nmax-model", "serve-config", t33)
    assert {"auto", "bfloat16"} <= set(labels("model: m\ndtype: ", "serve-config", t33))
    text = "model: m\nkv-transfer-config:\n  kv_connector: NixlConnector\n  kv_r"
    assert "kv_role" in labels(text, "serve-config", t33)
    text = "model: m\nkv-transfer-config:\n  kv_connector: NixlConnector\n  kv_connector_extra_config:\n    back"
    assert labels(text, "serve-config", t33) == ["backends"]


def test_manifest_args_list_and_env(t33):
    text = (FIX / "decode-deployment.yaml").read_text()
    lines = text.split("\n")
    line, col = position_of(text, "- --max-model-len", 2 + len("--max-m"))
    c = context.at(lines, line, col, "manifest", completion.json_flags(t33.catalog))
    assert (c.kind, c.prefix) == ("flag", "--max-m")
    line, col = position_of(text, '"kv_role"', 1 + len("kv_"))
    c = context.at(lines, line, col, "manifest", completion.json_flags(t33.catalog))
    assert (c.kind, c.prefix, c.flag) == ("json_key", "kv_", "--kv-transfer-config")
    line, col = position_of(text, "- name: VLLM_NIXL", len("- name: VLLM_NIXL"))
    c = context.at(lines, line, col, "manifest", completion.json_flags(t33.catalog))
    assert (c.kind, c.prefix) == ("env_name", "VLLM_NIXL")
    flow = 'spec:\n  containers:\n    - image: vllm/vllm-openai\n      args: ["--port", "8000", "--max-n'
    assert "--max-num-seqs" in labels(flow, "manifest", t33)
    # compose: a command list, a command string
    compose = (
        "services:\n  decode:\n    image: vllm/vllm-openai\n    command:\n      - --model\n      - m\n      - --max-n"
    )
    assert "--max-num-seqs" in labels(compose, "manifest", t33)
    assert "--max-num-seqs" in labels("services:\n  d:\n    command: vllm serve m --max-n", "manifest", t33)
    assert "--max-num-seqs" in labels('services:\n  d:\n    command: ["vllm", "serve", "m", "--max-n', "manifest", t33)


def test_hostile_cursor_text_answers(t33):
    jf = completion.json_flags(t33.catalog)
    deep = "vllm serve m --kv-transfer-config '" + '{"a":' * 20000
    for text in [deep, "vllm serve m --x '" + "x" * 200000, "\x00\xff" * 1000, "'" * 5000, '"\\' * 3000]:
        lines = text.split("\n")
        c = context.at(lines, len(lines) - 1, len(lines[-1]), "bash", jf)
        completion.complete(c, t33, lines, len(lines) - 1)
        hover.hover(lines, len(lines) - 1, max(0, len(lines[-1]) - 1), "bash", t33)


# --------------------------------------------------------------------------- hover


def test_hover_flag_variable_key_connector_and_rule(t13):
    text = SEED.read_text()
    lines = text.split("\n")

    def at(needle: str, off: int = 1) -> str:
        line, col = position_of(text, needle, off)
        got = hover.hover(lines, line, col, "bash", t13)
        assert got is not None, needle
        return got[0]

    md = at("--max-model-len")
    assert "**--max-model-len**" in md and "ModelConfig.max_model_len" in md and "vllm/engine/arg_utils.py:" in md
    md = at("VLLM_RPC_TIMEOUT")
    assert "**VLLM_RPC_TIMEOUT**" in md and "vllm/envs.py:" in md
    md = at('"kv_role"', 2)
    assert "KVTransferConfig.kv_role" in md and "kv_consumer" in md
    md = at('"P2pNcclConnector"', 2)
    assert "KV connector" in md and "registered at" in md
    md = at('"proxy_port"', 2)
    assert "P2pNcclConnector" in md and "read at" in md
    md = at("USE_FLAGGEMS")
    assert "plugin" in md
    got = hover.hover(["# vcfg: disable=VC001"], 0, 18, "bash", t13)
    assert got is not None and "unknown-flag" in got[0]


def test_hover_on_a_removed_name_says_when(t33):
    lines = ["export VLLM_RPC_TIMEOUT=600000"]
    md = hover.hover(lines, 0, 10, "bash", t33)[0]
    assert "not a variable of vllm 0.33.0" in md and "removed in 0.23.0" in md


# --------------------------------------------------------------------------- positions


def test_line_map_utf16_columns():
    lm = LineMap("# 中文注释 🙂\nvllm serve m\n", "utf-16")
    assert lm.to_client(0, 7) == (0, 7)  # BMP characters: one unit each
    assert lm.to_client(0, 8) == (0, 9)  # the emoji is two UTF-16 units
    assert lm.from_client(0, 9) == (0, 8)
    assert LineMap("é", "utf-8").to_client(0, 1) == (0, 2)
    assert uri_to_path("file:///tmp/a%20b/x.sh") == "/tmp/a b/x.sh"
    assert uri_to_path("untitled:Untitled-1", "yaml") == "<Untitled-1.yaml>"
    assert uri_to_path("untitled:Untitled-2", "shellscript") == "<Untitled-2.sh>"


# --------------------------------------------------------------------------- over the wire


def test_stdio_session_on_the_seed_script(tmp_path):
    """initialize, open, diagnostics (the same as `vcfg lint`), change, completion, hover,
    a quick fix, a release switch, shutdown: a real client over stdio."""
    c = Client(cwd=tmp_path)
    try:
        init = c.initialize(tmp_path, options={"vcfg": {"vllmVersion": "0.33.0", "debounceMs": 20}})
        caps = init["capabilities"]
        assert caps["completionProvider"] and caps["hoverProvider"] and caps["codeActionProvider"]
        uri = SEED.as_uri()
        text = SEED.read_text()
        c.open(uri, text)
        got = c.diagnostics(uri)
        want = lint_paths([str(SEED)], "0.33.0", config=LintConfig()).diagnostics
        assert [(d["code"], d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1) for d in got] == [
            (d.code, d.span.line, d.span.col) for d in want
        ]
        vc027 = next(d for d in got if d["code"] == "VC027")
        assert vc027["codeDescription"]["href"].endswith("VC027-unknown-connector.md")
        assert vc027["source"] == "vcfg" and vc027["severity"] in (1, 2)

        # a change: a typo'd flag appears at once (after the debounce)
        new = text.replace("--seed 1024", "--seeed 1024")
        v = c.change(uri, new)
        got = c.diagnostics(uri, version=v)
        line, col = position_of(new, "--seeed")
        assert any(d["code"] == "VC001" and d["range"]["start"] == {"line": line, "character": col} for d in got)

        # completion and hover
        line, col = position_of(new, "--max-num-seqs", len("--max-num"))
        assert "--max-num-seqs" in c.labels(uri, line, col)
        h = c.hover(uri, line, col)
        assert "SchedulerConfig.max_num_seqs" in h["contents"]["value"]

        # the fix of VC001's did-you-mean, or at least a suppression, for the typo
        vc001 = [d for d in got if d["code"] == "VC001"]
        acts = c.code_actions(uri, vc001)
        titles = [a["title"] for a in acts]
        assert any("disable=VC001" in t for t in titles), titles

        # switch the release: the 0.13 script is clean of the 0.33-only findings
        assert c.command("vcfg.setRelease", {"version": "0.13.0"})["ok"] is True
        got = c.diagnostics(uri)
        assert "VC027" not in {d["code"] for d in got} and "VC001" in {d["code"] for d in got}
        assert c.shutdown() == 0
        assert not any("Traceback" in str(m) for m in c.messages)
    finally:
        c.kill()


def test_the_lint_path_never_imports_the_server(tmp_path):
    import subprocess

    code = (
        "import sys; sys.argv = ['vcfg', 'lint', '--vllm-version', '0.33.0', sys.argv[1]]\n"
        "from vcfg.cli import main\n"
        "try:\n    main()\n"
        "finally:\n    print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol', 'cattrs')"
        " or m.startswith('vcfg.lsp')), file=sys.stderr)\n"
    )
    r = subprocess.run([sys.executable, "-c", code, str(SEED)], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 1 and "VC027" in r.stdout
    assert r.stderr.strip().splitlines()[-1] == "[]"
    # and `vcfg lsp` without pygls says what to install
    code = "import sys; sys.modules['pygls'] = None\nfrom vcfg.lsp import run\nsys.exit(run([]))\n"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 2 and "pip install 'vcfg[lsp]'" in r.stderr


def test_flag_details_in_words(t33):
    cat = t33.catalog
    assert completion.flag_detail(cat.flag("--trust-remote-code")) == "switch, no value (off)"
    assert completion.flag_detail(cat.flag("--tensor-parallel-size")) == "int = 1"
    assert completion.flag_detail(cat.flag("--dtype")).startswith("{auto,")
    assert completion.flag_detail(cat.flag("--kv-transfer-config")) == "JSON (KVTransferConfig)"
    # a switch in a serve config takes true or false
    assert set(labels("model: m\nport: 1\ntrust-remote-code: ", "serve-config", t33)) == {"true", "false"}


def test_settings_parse_and_the_release_order(tmp_path):
    from vcfg.lsp.settings import Settings, parse_client_settings

    s, problems = parse_client_settings(
        {
            "vcfg": {
                "vllmVersion": "0.13.0",
                "releases": {"legacy/*.sh": "0.10.2"},
                "debounceMs": 50,
                "colour": "red",
                "knowledge": "x",
            }
        }
    )
    assert (s.vllm_version, s.releases, s.debounce_ms) == ("0.13.0", {"legacy/*.sh": "0.10.2"}, 50)
    assert problems == ["unknown vcfg setting 'colour'", "vcfg.knowledge must be a list of folders"]
    assert parse_client_settings([1])[1] and parse_client_settings(None) == (parse_client_settings({})[0], [])
    (tmp_path / "pyproject.toml").write_text('[tool.vcfg]\nvllm-version = "0.20.2"\n')
    (tmp_path / "legacy").mkdir()
    st = Settings()
    a, b = str(tmp_path / "a.sh"), str(tmp_path / "legacy" / "b.sh")
    assert st.target_for(a)[0].version == "0.20.2"  # the project config
    st.client = s
    assert st.target_for(a)[0].version == "0.13.0"  # the client setting
    assert st.target_for(b)[0].version == "0.10.2"  # a glob
    st.workspace_release = "0.33.0"
    assert st.target_for(a)[0].version == "0.33.0"
    st.file_release[a] = "0.11.2"
    assert st.target_for(a)[0].version == "0.11.2"
    st.file_release[a] = "0.1.0"  # no catalog: the defaults, and why
    target, problems = st.target_for(a)
    assert "0.1.0" in problems[0] and target.version == "0.20.2"
