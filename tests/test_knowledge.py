"""Knowledge packs (vcfg.catalog.knowledge) and version ranges (vcfg.catalog.versions)."""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest

from vcfg.catalog.knowledge import load_packs, read_pack, source_form
from vcfg.catalog.versions import compare, parse_range, parse_version
from vcfg.errors import VcfgError

# --------------------------------------------------------------------------- versions


@pytest.mark.parametrize(
    "a,b,expected",
    [
        ("0.10", "0.10.0", 0),
        ("0.9.2", "0.10.0", -1),
        ("0.33.0", "0.4.0", 1),
        ("0.24.0rc1", "0.24.0", -1),
        ("0.24.0.dev3", "0.24.0rc1", -1),
        ("0.24.0.post1", "0.24.0", 1),
        ("0.33.0+cu130", "0.33.0", 0),
        ("v0.11.2", "0.11.2", 0),
    ],
)
def test_version_order(a, b, expected):
    assert compare(a, b) == expected


@pytest.mark.parametrize("bad", ["", "abc", "0..1", "1.0-foo", "0.1.x"])
def test_bad_versions_are_vcfg_errors(bad):
    with pytest.raises(VcfgError, match="not a version number"):
        parse_version(bad)


def test_range_matching():
    rng = parse_range(">=0.10,<0.24")
    assert [v for v in ("0.9.2", "0.10.0", "0.11.2", "0.23.0", "0.24.0", "0.33.0") if v in rng] == [
        "0.10.0",
        "0.11.2",
        "0.23.0",
    ]
    assert "0.24.0rc1" in rng  # pre-releases are not excluded (documented)
    assert "0.17.1" not in parse_range(">=0.10,!=0.17.1")
    assert "0.11.2" in parse_range("==0.11.*") and "0.12.0" not in parse_range("==0.11.*")
    assert "0.1.0" in parse_range("") and "9.9" in parse_range("*")
    assert "0.22.1" in parse_range("> 0.22.0 , <= 0.22.1")


@pytest.mark.parametrize("bad", ["0.10", ">=0.10;<0.24", "=>0.10", ">=0.1x", ">0.10.*"])
def test_bad_ranges_are_vcfg_errors(bad):
    with pytest.raises(VcfgError):
        parse_range(bad)


# --------------------------------------------------------------------------- bundled packs


@pytest.fixture(scope="module")
def kb():
    return load_packs()


def test_bundled_packs_load(kb):
    assert {p.label for p in kb.packs} >= {"removed.toml", "connectors.toml", "plugin-flagos.toml"}
    assert all(p.bundled for p in kb.packs)
    assert len(kb.removed_entries) >= 20


def test_every_bundled_entry_has_sources_and_a_valid_range(kb):
    parts = []
    for e in kb.removed_entries + kb.connectors + kb.plugins:
        parts.append((e.name, e.versions, e.sources))
    for c in kb.connectors:
        for sub in (*c.roles, *c.keys, *c.ports):
            if sub.versions is not None:
                parse_range(sub.versions)
                # a part's range must lie inside its connector's range where they meet
                assert (
                    any(v in parse_range(c.versions) for v in parse_range(sub.versions).bounds())
                    or not parse_range(sub.versions).bounds()
                ), (c.name, sub)
    for p in kb.plugins:
        for env in p.env:
            parts.append((env.name, p.versions, env.sources))
    for s in kb.settings:
        parts.append((s.name, s.versions, s.sources))
    for pack in kb.packs:
        for b in pack.content.behaviour:
            parts.append((b.name, f">={b.since}", b.sources))
    for name, versions, sources in parts:
        parse_range(versions)
        assert sources, name
        assert all(source_form(s) for s in sources), (name, sources)


def test_every_removed_entry_is_consistent(kb):
    for e in kb.removed_entries:
        assert e.removed_in in e.range, e.name
        if e.last_present:
            assert e.last_present not in e.range, e.name
            assert compare(e.last_present, e.removed_in) < 0, e.name
        assert e.note and len(e.note.splitlines()) == 1, e.name


def test_removed_flag_queries(kb):
    hit = kb.removed_flag("--disable-log-requests", "0.32.0")
    assert hit is not None and hit.replacement == ["--enable-log-requests"]
    assert hit.removed_in == "0.17.1" and hit.last_present == "0.16.0"
    assert kb.removed_flag("--disable-log-requests", "0.16.0") is None  # still there in 0.16
    assert kb.removed_flag("--disable-log-requests", "0.33.0") is None  # an inverse form again in 0.33
    assert kb.removed_flag("--disable_log_requests=1", "0.20.0") is hit  # normalised like vLLM
    assert kb.removed_flag("--no-disable-log-requests", "0.20.0") is hit  # alias
    assert kb.removed_flag("--task", "0.13.0").replacement == ["--runner", "--convert"]
    assert kb.removed_flag("--task", "0.12.0") is None
    assert kb.removed_flag("--max-num-seqs", "0.33.0") is None
    assert kb.removed_flag("--override-pooler-config").replacement == ["--pooler-config"]


def test_removed_env_config_and_connector_queries(kb):
    assert kb.removed_env("VLLM_RPC_TIMEOUT", "0.23.0").removed_in == "0.23.0"
    assert kb.removed_env("VLLM_RPC_TIMEOUT", "0.22.1") is None
    assert kb.removed_env("VLLM_ENGINE_ITERATION_TIMEOUT_S", "0.32.0") is not None
    assert kb.removed_env("VLLM_ATTENTION_BACKEND", "0.26.0").replacement[0] == "--attention-backend"
    assert kb.removed_config_field("KVTransferConfig.kv_buffer_size", "0.32.0") is not None
    assert kb.removed_config_field("KVTransferConfig.kv_buffer_size", "0.31.0") is None
    assert kb.removed_connector("P2pNcclConnector", "0.24.0").removed_in == "0.24.0"
    assert kb.removed_connector("SharedStorageConnector", "0.13.0").replacement == ["ExampleConnector"]
    # a V0 name that came back as a new V1 connector
    assert kb.removed_connector("MooncakeStoreConnector", "0.20.0") is not None
    assert kb.removed_connector("MooncakeStoreConnector", "0.21.0") is None


def test_connector_facts_are_narrowed_to_the_version(kb):
    old = kb.connector_facts("P2pNcclConnector", "0.10.0")
    assert old.key("http_port").required is True and old.key("http_port").required_when is None
    new = kb.connector_facts("P2pNcclConnector", "0.20.0")
    assert new.key("http_port").required is False
    assert "proxy_ip" in new.key("http_port").required_when
    assert new.key("proxy_port").json_types == ["string"]
    assert new.key("nccl_num_channels").json_types == ["string"]
    assert new.key("send_type").choices == ["PUT", "GET", "PUT_ASYNC"]
    assert new.roles[0].decode == ["kv_consumer"]
    (port,) = new.ports
    assert (port.base, port.default, port.offset) == ("config:kv_port", 14579, "world_rank")
    assert kb.connector_facts("P2pNcclConnector", "0.24.0") is None

    nixl_old = kb.connector_facts("NixlConnector", "0.11.0")
    assert [(p.default, p.offset) for p in nixl_old.ports] == [(5557, "dp_rank_times_tp_plus_tp_rank")]
    nixl = kb.connector_facts("NixlConnector", "0.33.0")
    assert [(p.base, p.default, p.offset) for p in nixl.ports] == [
        ("env:VLLM_NIXL_SIDE_CHANNEL_PORT", 5600, "dp_index")
    ]
    assert nixl.roles[0].deprecated == ["kv_both"]
    assert [p.import_name for p in nixl.python_packages] == ["nixl"]

    off = {k.name for k in kb.connector_facts("OffloadingConnector", "0.11.0").keys}
    assert "num_cpu_blocks" in off and "cpu_bytes_to_use" not in off and "eviction_policy" not in off
    off20 = {k.name for k in kb.connector_facts("OffloadingConnector", "0.20.0").keys}
    assert "cpu_bytes_to_use" in off20 and "num_cpu_blocks" not in off20 and "eviction_policy" in off20
    mooncake = kb.connector_facts("MooncakeConnector", "0.33.0")
    assert [(p.base, p.default) for p in mooncake.ports] == [("env:VLLM_MOONCAKE_BOOTSTRAP_PORT", 8998)]
    assert kb.connector_facts("MooncakeStoreConnector", "0.33.0").key("lookup_rpc_port").required is False


def test_flagos_plugin(kb):
    plugin = kb.plugin("vllm-plugin-FL")
    assert plugin is kb.plugin("fl") is kb.plugin("vllm_fl")
    assert plugin.plugin_names == ["fl"]
    assert {e.name for e in plugin.env} >= {"USE_FLAGGEMS", "USE_FLAGCX", "FLAGCX_PATH", "FLAGCX_LIB_PATH"}
    gems = kb.plugin_env("USE_FLAGGEMS")
    assert gems.type == "bool" and gems.default is True and gems.truthy == ["1", "true"]
    assert kb.plugin_env("FLAGCX_PATH").type == "path"
    assert kb.plugin_env("VLLM_RPC_TIMEOUT") is None
    assert kb.plugin_of_env("FLAGCX_LIB_PATH") is plugin
    for name in ("FlagCXConnector", "FlagcxConnector"):
        facts = kb.connector_facts(name, "0.20.0")
        assert facts.plugin == "vllm-plugin-FL"
        assert facts.env_any_of == [["FLAGCX_PATH", "FLAGCX_LIB_PATH"]]
        assert kb.plugin_of_connector(name) is plugin


# --------------------------------------------------------------------------- user packs and errors

USER_PACK = """
[pack]
name = "acme"

[[plugin]]
name = "vllm-acme"
package = "vllm_acme"
entry_points = { "vllm.general_plugins" = "acme" }
connectors = ["AcmeConnector"]
versions = ">=0.20"
sources = ["acme-corp/vllm-acme:vllm_acme/__init__.py"]

[[plugin.env]]
name = "ACME_FABRIC"
type = "str"
meaning = "which fabric to use"
sources = ["acme-corp/vllm-acme:vllm_acme/connector.py:40"]

[[connector]]
name = "AcmeConnector"
plugin = "vllm-acme"
versions = ">=0.20"
env_any_of = [["ACME_HOME"]]
sources = ["acme-corp/vllm-acme:vllm_acme/connector.py"]

[[connector.keys]]
name = "acme_port"
required = true
json_types = ["integer"]

[[removed]]
kind = "flag"
name = "--disable-log-requests"
removed_in = "0.17.1"
last_present = "0.16.0"
note = "our own wording wins"
versions = ">=0.17.1"
sources = ["https://example.org/notes"]
"""


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def test_user_pack_in_a_directory(tmp_path):
    _write(tmp_path / "packs" / "nested" / "acme.toml", USER_PACK)
    kb = load_packs([tmp_path / "packs"])
    assert kb.packs[-1].bundled is False and kb.packs[-1].content.pack.name == "acme"
    acme = kb.connector_facts("AcmeConnector", "0.33.0")
    assert acme.key("acme_port").required and acme.env_any_of == [["ACME_HOME"]]
    assert kb.connector_facts("AcmeConnector", "0.19.0") is None
    assert kb.plugin("acme").name == "vllm-acme"
    assert kb.plugin_env("ACME_FABRIC").type == "str"
    # user packs are loaded last and win over bundled entries
    assert kb.removed_flag("--disable-log-requests", "0.33.0").note == "our own wording wins"
    # bundled facts are still there
    assert kb.connector_facts("NixlConnector", "0.33.0") is not None


def test_user_pack_as_a_file(tmp_path):
    path = _write(tmp_path / "acme.toml", USER_PACK)
    assert load_packs([path]).plugin("acme") is not None
    assert load_packs([str(path)]).plugin("acme") is not None


def test_missing_user_directory(tmp_path):
    with pytest.raises(VcfgError, match="no such knowledge pack"):
        load_packs([tmp_path / "nope"])


def _error_for(tmp_path, text, name="bad.toml"):
    path = _write(tmp_path / name, text)
    with pytest.raises(VcfgError) as info:
        read_pack(path)
    msg = str(info.value)
    assert msg.startswith(str(path) + ":"), msg
    return msg


def test_invalid_toml(tmp_path):
    assert "not valid TOML" in _error_for(tmp_path, "[[removed]\nname = 1\n")


def test_unknown_key_names_file_and_entry(tmp_path):
    msg = _error_for(
        tmp_path,
        """
        [[connector]]
        name = "A"
        versions = ">=0.20"
        sources = ["a/b#1"]

        [[connector]]
        name = "B"
        versions = ">=0.20"
        sources = ["a/b#1"]
        kv_rol = "kv_both"
        """,
    )
    assert "connector[1] ('B')" in msg and "kv_rol" in msg


def test_nested_error_names_the_part(tmp_path):
    msg = _error_for(
        tmp_path,
        """
        [[connector]]
        name = "A"
        versions = ">=0.20"
        sources = ["a/b#1"]

        [[connector.keys]]
        name = "ok"

        [[connector.keys]]
        name = "acme_port"
        json_types = ["int"]
        """,
    )
    assert "connector[0] ('A').keys[1] ('acme_port').json_types[0]" in msg


def test_missing_sources_and_bad_sources(tmp_path):
    msg = _error_for(
        tmp_path,
        """
        [[connector]]
        name = "A"
        versions = ">=0.20"
        sources = []
        """,
    )
    assert "connector[0] ('A')" in msg and "at least one source" in msg
    msg = _error_for(
        tmp_path,
        """
        [[connector]]
        name = "A"
        versions = ">=0.20"
        sources = ["somewhere in the code"]
        """,
        name="bad2.toml",
    )
    assert "unrecognised source" in msg


def test_bad_version_range_in_a_pack(tmp_path):
    msg = _error_for(
        tmp_path,
        """
        [[plugin]]
        name = "p"
        package = "p"
        versions = ">=0.30,<<0.40"
        sources = ["a/b#1"]
        """,
    )
    assert "plugin[0] ('p')" in msg and "versions" in msg and "<0.40" in msg


def test_removed_entry_rules(tmp_path):
    base = """
    [[removed]]
    kind = "env"
    name = "VLLM_X"
    removed_in = "{removed_in}"
    last_present = "{last}"
    note = "gone"
    versions = "{versions}"
    sources = ["a/b#1"]
    """
    msg = _error_for(tmp_path, base.format(removed_in="0.20.0", last="0.19.1", versions=">=0.21"))
    assert "removed[0] ('VLLM_X')" in msg and "must contain removed_in" in msg
    msg = _error_for(tmp_path, base.format(removed_in="0.20.0", last="0.21.0", versions=">=0.20"), name="b.toml")
    assert "older than removed_in" in msg
    msg = _error_for(tmp_path, base.format(removed_in="0.20.x", last="0.19.1", versions=">=0.20"), name="c.toml")
    assert "not a version number" in msg
    msg = _error_for(
        tmp_path,
        base.format(removed_in="0.20.0", last="0.19.1", versions=">=0.20").replace('"env"', '"knob"'),
        name="d.toml",
    )
    assert "kind" in msg


def test_overlapping_duplicates_in_one_file(tmp_path):
    entry = """
    [[connector]]
    name = "A"
    versions = "{v}"
    sources = ["a/b#1"]
    """
    msg = _error_for(tmp_path, entry.format(v=">=0.20") + entry.format(v=">=0.30,<0.40"))
    assert "'A' appears twice" in msg
    ok = _write(tmp_path / "ok.toml", entry.format(v=">=0.20,<0.30") + entry.format(v=">=0.30"))
    pack = read_pack(ok)
    assert len(pack.content.connector) == 2


def test_not_utf8_and_unreadable(tmp_path):
    path = tmp_path / "bin.toml"
    path.write_bytes(b"\xff\xfe\x00name")
    with pytest.raises(VcfgError, match="bin.toml: knowledge pack is not UTF-8"):
        read_pack(path)
    with pytest.raises(VcfgError, match="cannot read"):
        read_pack(tmp_path / "missing.toml")


def test_source_forms():
    assert source_form("vllm@0.20.0:vllm/envs.py:120") == "vllm"
    assert source_form("vllm@0.20.0:vllm/envs.py") == "vllm"
    assert source_form("vllm@zero:vllm/envs.py:1") is None
    assert source_form("vllm-project/vllm#23283") == "issue"
    assert source_form("flagos-ai/vllm-plugin-FL:vllm_fl/utils.py") == "repo_file"
    assert source_form("https://docs.vllm.ai/") == "url"
    assert source_form("research:user-pain.md#3.3") == "research"
    assert source_form("see the code") is None


# --------------------------------------------------------------------------- against real releases

_VLLM_SOURCE = re.compile(r"^vllm@(?P<v>[^:]+):(?P<path>[^:]+)(?::(?P<line>\d+))?")


def _flag_present(src, flag: str) -> bool:
    files = ["vllm/engine/arg_utils.py", *src.py_files("vllm/entrypoints")]
    pattern = re.compile(r"""['"]%s['"]""" % re.escape(flag))
    return any(pattern.search(src.read(f) or "") for f in files)


def _env_present(src, name: str) -> bool:
    return re.search(r'^\s*"%s"\s*:' % re.escape(name), src.read("vllm/envs.py") or "", re.M) is not None


def _field_present(src, dotted: str) -> bool:
    cls, fld = dotted.split(".")
    # every module of vllm/config/ (the classes moved out of config.py in 0.10), then config.py
    for rel in [*src.py_files("vllm/config"), "vllm/config.py"]:
        text = src.read(rel)
        if not text:
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.name == cls:
                return any(
                    isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and s.target.id == fld
                    for s in node.body
                )
    return False


def _present(src, entry) -> bool:
    from vcfg.catalog.extract.connectors import extract_connectors

    if entry.kind == "flag":
        return _flag_present(src, entry.name)
    if entry.kind == "env":
        return _env_present(src, entry.name)
    if entry.kind == "config_field":
        return _field_present(src, entry.name)
    return entry.name in {c.name for c in extract_connectors(src)}


@pytest.mark.slow
def test_removed_entries_match_real_sources():
    """removed_in really lacks it, last_present really has it."""
    from vcfg.catalog.extract.source import from_version

    kb = load_packs()
    cache: dict[str, object] = {}

    def src(v):
        if v not in cache:
            cache[v] = from_version(v)
        return cache[v]

    for e in kb.removed_entries:
        assert not _present(src(e.removed_in), e), f"{e.name} is still in {e.removed_in}"
        if e.last_present:
            assert _present(src(e.last_present), e), f"{e.name} is not in {e.last_present}"


@pytest.mark.slow
def test_vllm_citations_point_into_real_files():
    from vcfg.catalog.extract.source import from_version

    kb = load_packs()
    sources = set()
    for e in kb.removed_entries + kb.connectors + kb.plugins:
        sources.update(e.sources)
    for c in kb.connectors:
        for part in (*c.roles, *c.keys, *c.ports):
            sources.update(part.sources)
    for s in kb.settings:
        sources.update(s.sources)
    for pack in kb.packs:
        for b in pack.content.behaviour:
            sources.update(b.sources)
    checked = 0
    for s in sorted(sources):
        m = _VLLM_SOURCE.match(s)
        if not m:
            continue
        text = from_version(m.group("v")).read(m.group("path"))
        assert text is not None, s
        if m.group("line"):
            assert int(m.group("line")) <= len(text.splitlines()), s
        checked += 1
    assert checked >= 40


def test_docs_example_pack_loads(tmp_path):
    doc = (Path(__file__).resolve().parents[1] / "docs" / "knowledge-packs.md").read_text()
    example = re.search(r"```toml\n(.*?)```", doc, re.S).group(1)
    _write(tmp_path / "acme.toml", example)
    kb = load_packs([tmp_path])
    assert kb.connector_facts("AcmeConnector", "0.33.0").key("acme_port").required is True
    assert kb.plugin_env("ACME_FABRIC").type == "str"
    assert kb.plugin("acme").connectors == ["AcmeConnector"]
