"""vLLM plugins read like vLLM (vcfg/catalog/extract/plugin.py) and laid over a
release's catalog when a launch names them (vcfg/lint/plugin_view.py)."""

import io
import json
import tarfile
import zipfile

import pytest
from click.testing import CliRunner

from vcfg.catalog import plugins as pl
from vcfg.catalog.extract.plugin import build_plugin_catalog, open_plugin, parse_entry_points
from vcfg.cli.commands import main as cli
from vcfg.cli.lint import run as lint
from vcfg.errors import VcfgError

# A plugin in the shape of vllm-ascend: an envs.py in vLLM's form, a general-plugin
# entry whose function imports and calls the module that registers the connectors, a
# platform entry that registers none.
ENVS = """\
import os
from typing import Any, Callable

env_variables: dict[str, Callable[[], Any]] = {
    "ACME_FABRIC": lambda: os.getenv("ACME_FABRIC", "ib"),
    "VLLM_ACME_ENABLE_FUSION": lambda: bool(int(os.getenv("VLLM_ACME_ENABLE_FUSION", "1"))),
    "VLLM_ENGINE_READY_TIMEOUT_MS": lambda: int(os.getenv("VLLM_ENGINE_READY_TIMEOUT_MS", "500")),
}
"""
INIT = """\
def register():
    return "vllm_acme.platform.AcmePlatform"


def register_connector():
    from vllm_acme.kv import register_connector

    register_connector()
"""
KV = """\
from vllm.distributed.kv_transfer.kv_connector.factory import KVConnectorFactory


def register_connector():
    if "MultiConnector" in KVConnectorFactory._registry:
        KVConnectorFactory._registry.pop("MultiConnector")
    KVConnectorFactory.register_connector("MultiConnector", "vllm_acme.kv.multi", "AcmeMulti")
    KVConnectorFactory.register_connector(
        "AcmeConnector", "vllm_acme.kv.acme", "AcmeConnector"
    )
    try:
        import vllm.v1.some_optional_module  # noqa: F401
    except ImportError:
        pass
    else:
        KVConnectorFactory._registry.pop("NixlConnector")
        KVConnectorFactory.register_connector("NixlConnector", "vllm_acme.kv.acme", "AcmeNixl")
"""
ACME = """\
class AcmeConnector:
    def __init__(self, vllm_config, role):
        extra_config = vllm_config.kv_transfer_config.kv_connector_extra_config
        self.port = int(extra_config.get("acme_port", 7000))
        self.fabric = extra_config["acme_fabric"]
"""
ENTRY_POINTS = """\
[vllm.general_plugins]
acme_kv_connector = vllm_acme:register_connector

[vllm.platform_plugins]
acme = vllm_acme:register

[console_scripts]
acme-tool = vllm_acme.cli:main
"""
FILES = {
    "vllm_acme/__init__.py": INIT,
    "vllm_acme/envs.py": ENVS,
    "vllm_acme/kv/__init__.py": KV,
    "vllm_acme/kv/acme.py": ACME,
    "vllm_acme/kv/multi.py": "class AcmeMulti:\n    pass\n",
}


def _wheel(tmp_path, version="1.2.0"):
    w = tmp_path / f"vllm_acme-{version}-py3-none-any.whl"
    with zipfile.ZipFile(w, "w") as z:
        for name, text in FILES.items():
            z.writestr(name, text)
        z.writestr(
            f"vllm_acme-{version}.dist-info/METADATA",
            f"Metadata-Version: 2.1\nName: vllm_acme\nVersion: {version}\nRequires-Dist: vllm==0.33.0\n",
        )
        z.writestr(f"vllm_acme-{version}.dist-info/entry_points.txt", ENTRY_POINTS)
    return w


def _sdist(tmp_path, version="1.2.0", egg_info=True):
    path = tmp_path / f"vllm_acme-{version}.tar.gz"
    files = {f"vllm_acme-{version}/{k}": v for k, v in FILES.items()}
    files[f"vllm_acme-{version}/PKG-INFO"] = f"Metadata-Version: 2.1\nName: vllm-acme\nVersion: {version}\n"
    if egg_info:
        files[f"vllm_acme-{version}/vllm_acme.egg-info/entry_points.txt"] = ENTRY_POINTS
    else:
        files[f"vllm_acme-{version}/setup.py"] = (
            "from setuptools import setup\nsetup(name='vllm-acme', entry_points={\n"
            "    'vllm.platform_plugins': ['acme = vllm_acme:register'],\n"
            "    'vllm.general_plugins': ['acme_kv_connector = vllm_acme:register_connector'],\n})\n"
        )
    with tarfile.open(path, "w:gz") as tf:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return path


def _build(spec):
    ps, tmp = open_plugin(str(spec))
    assert tmp is None
    return build_plugin_catalog(ps)


def test_wheel_is_read_like_vllm(tmp_path):
    pc = _build(_wheel(tmp_path))
    assert (pc.name, pc.version, pc.package, pc.requires_vllm) == ("vllm-acme", "1.2.0", "vllm_acme", "vllm==0.33.0")
    assert pc.entry_names == ["acme", "acme_kv_connector"]  # console_scripts is not vLLM's
    envs = {e.name: e for e in pc.env_vars}
    assert [(e.name, str(e.loc)) for e in pc.env_vars] == [
        ("ACME_FABRIC", "vllm_acme/envs.py:5"),
        ("VLLM_ACME_ENABLE_FUSION", "vllm_acme/envs.py:6"),
        ("VLLM_ENGINE_READY_TIMEOUT_MS", "vllm_acme/envs.py:7"),
    ]
    assert (envs["VLLM_ACME_ENABLE_FUSION"].parse, envs["VLLM_ACME_ENABLE_FUSION"].default) == ("bool_int", True)
    assert (envs["ACME_FABRIC"].parse, envs["ACME_FABRIC"].default) == ("str", "ib")
    conns = {c.name: c for c in pc.connectors}
    assert [(c.name, str(c.loc)) for c in pc.connectors] == [
        ("MultiConnector", "vllm_acme/kv/__init__.py:7"),
        ("AcmeConnector", "vllm_acme/kv/__init__.py:8"),
        ("NixlConnector", "vllm_acme/kv/__init__.py:17"),
    ]
    keys = {k.name: k for k in conns["AcmeConnector"].extra_keys}
    assert (keys["acme_port"].default, keys["acme_port"].type, str(keys["acme_port"].loc)) == (
        7000,
        "int",
        "vllm_acme/kv/acme.py:4",
    )
    assert keys["acme_fabric"].has_default is False
    # the general entry's function reaches the registrations through an import in its body
    assert pc.registered_by == {n: "acme_kv_connector" for n in conns}
    assert pc.replaces == ["MultiConnector", "NixlConnector"]
    assert pc.conditional == ["NixlConnector"]


@pytest.mark.parametrize("egg_info", [True, False], ids=["egg-info", "setup.py"])
def test_sdist_gives_the_same_facts(tmp_path, egg_info):
    wheel = _build(_wheel(tmp_path))
    sdist = _build(_sdist(tmp_path, egg_info=egg_info))
    assert sdist.source == "vllm-acme 1.2.0 (sdist)" and wheel.source == "vllm-acme 1.2.0 (wheel)"
    for attr in ("env_vars", "connectors", "registered_by", "replaces", "conditional"):
        assert getattr(sdist, attr) == getattr(wheel, attr), attr
    assert {(e.group, e.name) for e in sdist.entry_points} == {(e.group, e.name) for e in wheel.entry_points}


def test_source_tree_with_pyproject_entry_points(tmp_path):
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "vllm-acme"\nversion = "2.0.0"\n\n'
        '[project.entry-points."vllm.general_plugins"]\nacme_kv_connector = "vllm_acme:register_connector"\n'
    )
    pc = _build(tmp_path)
    assert pc.name == "vllm-acme" and pc.entry_names == ["acme_kv_connector"]
    assert len(pc.connectors) == 3 and len(pc.env_vars) == 3


def test_not_a_plugin(tmp_path):
    w = tmp_path / "other-1.0-py3-none-any.whl"
    with zipfile.ZipFile(w, "w") as z:
        z.writestr("other/__init__.py", "")
        z.writestr("other-1.0.dist-info/METADATA", "Name: other\nVersion: 1.0\n")
    with pytest.raises(VcfgError, match="declares no vllm.\\* entry points"):
        _build(w)
    with pytest.raises(VcfgError, match="nor NAME==VERSION"):
        open_plugin("vllm-ascend==latest; rm -rf /")
    assert parse_entry_points("[vllm.general_plugins]\nx = a:b\n")[0].value == "a:b"


def test_overlay_adds_what_the_loaded_entries_register():
    from vcfg.catalog import store

    cat, _ = store.load("0.33.0")
    pc = pl.find("vllm-ascend")
    full = pl.overlay(cat, [(pc, None)])
    assert full.env("VLLM_ASCEND_ENABLE_MLAPO").loc.file == "vllm_ascend/envs.py"
    assert full.connector("MooncakeConnectorV1").loc.file.startswith("vllm_ascend/")
    assert full.connector("MultiConnector").module.startswith("vllm_ascend.")  # replaced
    assert full.connector("NixlConnector").module.startswith("vllm.")  # vLLM's own stays
    # a variable vLLM reads too keeps vLLM's parsing
    assert pc.env("VERBOSE") is not None and full.env("VERBOSE") is cat.env("VERBOSE")
    platform_only = pl.overlay(cat, [(pc, ["ascend"])])
    assert platform_only.connector("MooncakeConnectorV1") is None
    assert platform_only.connector("MultiConnector").module.startswith("vllm.")
    assert platform_only.env("VLLM_ASCEND_ENABLE_MLAPO") is not None
    assert pl.overlay(cat, [(pc, None)]) is full  # cached
    assert cat.env("VLLM_ASCEND_ENABLE_MLAPO") is None  # the release's catalog is untouched


# --------------------------------------------------------------------------- lint


def _lint(tmp_path, text, *extra, name="launch.sh"):
    p = tmp_path / name
    p.write_text(text)
    out = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out):
        rc = lint(["--format", "json", *extra, str(p)])
    doc = json.loads(out.getvalue())
    return rc, sorted((d["code"], d["line"], d["column"]) for d in doc["diagnostics"]), doc


@pytest.fixture
def acme(tmp_path, monkeypatch):
    """The test plugin built into a fresh cache, where lint finds its overlay."""
    monkeypatch.setenv("VCFG_CACHE_DIR", str(tmp_path / "cache"))
    pl.clear_cache()
    r = CliRunner().invoke(cli, ["catalog", "build", "--plugin", str(_wheel(tmp_path))])
    assert r.exit_code == 0, r.output
    assert "vllm-acme 1.2.0: 3 env vars, 3 connectors, entry points acme, acme_kv_connector" in r.stderr
    assert (tmp_path / "cache" / "plugins" / "vllm-acme-1.2.0.json").is_file()
    yield
    pl.clear_cache()


SERVE = (
    "vllm serve m --kv-transfer-config "
    '\'{"kv_connector":"AcmeConnector","kv_role":"kv_both","kv_connector_extra_config":'
    '{"acme_fabric":"roce","acme_prot":1}}\'\n'
)


def test_vllm_plugins_names_the_plugin(tmp_path, acme):
    text = (
        "export VLLM_PLUGINS=acme,acme_kv_connector\nexport VLLM_ACME_ENABLE_FUSION=yes\n"
        "export VLLM_ENGINE_READY_TIMEOUT_MS=100\nexport VLLM_ACME_ENABLE_FUSIN=1\n" + SERVE
    )
    rc, got, _ = _lint(tmp_path, text, "--vllm-version", "0.33.0")
    col = text.splitlines()[4].index("acme_prot") + 1
    assert got == [
        ("VC028", 5, col),  # the plugin connector's extra-config keys are known: a typo is found
        ("VC101", 4, 8),  # a typo of the plugin's variable: did-you-mean from its overlay
        ("VC102", 2, 32),  # `yes` is not bool(int(...)) for the plugin's variable
    ], got


def test_without_the_plugin_named_its_variables_stay_unknown(tmp_path, acme):
    text = "export VLLM_ENGINE_READY_TIMEOUT_MS=100\nexport VLLM_ACME_ENABLE_FUSION=yes\n" + SERVE
    rc, got, _ = _lint(tmp_path, text, "--vllm-version", "0.33.0")
    # VLLM_ENGINE_READY_TIMEOUT_MS reads as a typo of vLLM's VLLM_ENGINE_READY_TIMEOUT_S, as without the
    # plugin; the unknown connector is VC027; nothing about the plugin's value
    assert ("VC101", 1, 8) in got and ("VC027", 3, SERVE.index('"AcmeConnector"') + 1) in got
    assert not any(c == "VC102" for c, _, _ in got)


def test_platform_entry_alone_registers_no_connector(tmp_path, acme):
    text = "export VLLM_PLUGINS=acme\nexport VLLM_ACME_ENABLE_FUSION=yes\n" + SERVE
    rc, got, _ = _lint(tmp_path, text, "--vllm-version", "0.33.0")
    assert ("VC102", 2, 32) in got  # the plugin is loaded: its variables are known
    assert ("VC027", 3, SERVE.index('"AcmeConnector"') + 1) in got  # but not its connectors


def test_project_config_names_the_plugin(tmp_path, acme, monkeypatch):
    (tmp_path / ".vcfg.toml").write_text('vllm-version = "0.33.0"\nplugins = ["vllm-acme"]\n')
    monkeypatch.chdir(tmp_path)
    rc, got, doc = _lint(tmp_path, "export VLLM_ACME_ENABLE_FUSION=yes\n" + SERVE)
    assert got == [("VC028", 2, SERVE.index("acme_prot") + 1), ("VC102", 1, 32)]
    assert "plus vllm-acme 1.2.0" in doc["summary"]["version_note"]
    # a VLLM_PLUGINS list that leaves it out leaves it out
    rc, got, _ = _lint(tmp_path, "export VLLM_PLUGINS=other\nexport VLLM_ACME_ENABLE_FUSION=yes\n" + SERVE)
    assert not any(c == "VC102" for c, _, _ in got)


def test_unknown_plugin_in_config_is_a_clear_error(tmp_path, monkeypatch, capsys):
    (tmp_path / ".vcfg.toml").write_text('plugins = ["vllm-nonesuch"]\n')
    (tmp_path / "launch.sh").write_text("vllm serve m\n")
    monkeypatch.chdir(tmp_path)
    assert lint(["launch.sh"]) == 2
    err = capsys.readouterr().err
    assert "no overlay for plugin 'vllm-nonesuch'" in err and "Traceback" not in err


def test_bundled_ascend_overlay_in_lint(tmp_path):
    """The bundled vllm-ascend overlay (built from its sdist): VLLM_PLUGINS with the
    entry names vllm-ascend registers (`ascend` platform, `ascend_kv_connector`)."""
    conn = 'vllm serve m --kv-transfer-config \'{"kv_connector":"MooncakeConnectorV1","kv_role":"kv_producer"}\'\n'
    text = (
        "export VLLM_PLUGINS=ascend,ascend_kv_connector\nexport VLLM_ASCEND_ENABLE_MLAPO=true\n"
        "export VLLM_ASCEND_ENABLE_MLAP=1\n" + conn
    )
    rc, got, _ = _lint(tmp_path, text, "--vllm-version", "0.23.0")
    assert got == [("VC101", 3, 8), ("VC102", 2, 33)], got
    rc, got, _ = _lint(tmp_path, "export VLLM_PLUGINS=ascend\n" + conn, "--vllm-version", "0.23.0")
    assert got == [("VC027", 2, conn.index('"MooncakeConnectorV1"') + 1)]
    rc, got, doc = _lint(tmp_path, "export VLLM_ASCEND_ENABLE_MLAPO=true\n" + conn, "--vllm-version", "0.23.0")
    assert ("VC102", 1, 33) not in got  # not named: not judged


def test_a_broken_user_overlay_is_a_note_and_the_others_still_count(tmp_path, capsys):
    """A user overlay that cannot be read is named in a note (never a traceback), and
    VLLM_PLUGINS still reaches the bundled vllm-ascend overlay."""
    folder = pl.user_dir()
    folder.mkdir(parents=True)
    (folder / "vllm-broken-1.0.json").write_text("{not json")
    conn = 'vllm serve m --kv-transfer-config \'{"kv_connector":"MooncakeConnectorV1","kv_role":"kv_producer"}\'\n'
    text = (
        "export VLLM_PLUGINS=ascend,ascend_kv_connector\nexport VLLM_ASCEND_ENABLE_MLAPO=true\n"
        "export VLLM_ASCEND_ENABLE_MLAP=1\n" + conn
    )
    capsys.readouterr()
    rc, got, _ = _lint(tmp_path, text, "--vllm-version", "0.23.0")
    assert (rc, got) == (1, [("VC101", 3, 8), ("VC102", 2, 33)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    notes = [line for line in err.splitlines() if line.startswith("vcfg: note: ")]
    assert len(notes) == 1 and "vllm-broken-1.0.json: not a vcfg plugin overlay" in notes[0], err
    # a launch that sets no VLLM_PLUGINS reads no overlay: nothing to say
    _lint(tmp_path, "export VLLM_ASCEND_ENABLE_MLAPO=true\n" + conn, "--vllm-version", "0.23.0")
    assert "note:" not in capsys.readouterr().err


def test_explain_and_connectors_with_the_plugin_named():
    r = CliRunner().invoke(
        cli,
        [
            "explain",
            "VLLM_ASCEND_ENABLE_MLAPO",
            "--plugin",
            "vllm-ascend",
            "--vllm-version",
            "0.23.0",
            "--format",
            "json",
        ],
    )
    doc = json.loads(r.output)
    assert doc["kind"] == "env" and doc["defined_at"] == "vllm_ascend/envs.py:87"
    assert doc["facts"]["plugin"] == "vllm-ascend 0.23.0.post1" and doc["facts"]["parse"] == "bool_int"
    r = CliRunner().invoke(cli, ["explain", "VLLM_ASCEND_ENABLE_MLAPO", "--vllm-version", "0.23.0", "--format", "json"])
    doc = json.loads(r.output)  # not named: still explained from the overlay, with how to name it
    assert doc["kind"] == "plugin_env" and doc["defined_at"] == "vllm_ascend/envs.py:87"
    assert 'plugins = ["vllm-ascend"]' in doc["note"]
    r = CliRunner().invoke(
        cli,
        ["explain", "MooncakeConnectorV1", "--plugin", "vllm-ascend", "--vllm-version", "0.23.0", "--format", "json"],
    )
    doc = json.loads(r.output)
    assert doc["defined_at"] == "vllm_ascend/distributed/kv_transfer/__init__.py:29"
    r = CliRunner().invoke(
        cli, ["connectors", "--plugin", "vllm-ascend", "--vllm-version", "0.23.0", "--format", "json"]
    )
    rows = {x["name"]: x for x in json.loads(r.output)["connectors"]}
    assert rows["MooncakeConnectorV1"]["registered_at"] == "vllm_ascend/distributed/kv_transfer/__init__.py:29"
    assert rows["MooncakeConnectorV1"]["enable_with"] == "VLLM_PLUGINS listing ascend_kv_connector"
    assert "replaces vLLM's" in rows["MultiConnector"]["source"]
    r = CliRunner().invoke(cli, ["connectors", "--vllm-version", "0.23.0", "--format", "json"])
    rows = {x["name"]: x for x in json.loads(r.output)["connectors"]}
    assert rows["MultiConnector"]["source"] == "vllm"
    assert rows["MooncakeConnectorV1"]["registered_at"] is None  # from the pack, not laid over


def test_pack_entry_takes_the_built_connectors():
    """plugin-ascend.toml names no connectors: knowledge.json has the overlay's."""
    from vcfg.catalog.knowledge import load_packs

    p = load_packs().plugin("vllm-ascend")
    pc = pl.find("vllm-ascend")
    assert p.connectors == [c.name for c in pc.connectors if c.name not in pc.replaces]
    assert p.plugin_names == ["ascend_kv_connector"] and p.names == {"quantization": ["ascend"]}


@pytest.mark.slow
def test_bundled_overlay_is_reproduced_from_the_index():
    """Downloads vllm-ascend (its sdist: 0.23.0.post1 has no wheel) and rebuilds."""
    from vcfg.dev.generate import generate_plugin

    for spec in pl.BUNDLED_PLUGINS:
        pc = generate_plugin(spec)
        path = pl.BUNDLED_DIR / f"{pc.name}-{pc.version}.json"
        assert pl.dumps(pc) == path.read_text(encoding="utf-8"), "run: python -m vcfg.dev generate --only plugins"


def test_a_launch_that_names_no_plugin_reads_no_overlay(tmp_path):
    """The lint path of a script without VLLM_PLUGINS (and no plugins configured) never
    imports the overlay code; with VLLM_PLUGINS it does, and lays the overlay over."""
    import subprocess
    import sys

    code = (
        "import sys; sys.argv = ['vcfg', 'lint', '--vllm-version', '0.23.0', sys.argv[1]]\n"
        "from vcfg.cli import main\n"
        "try:\n    main()\n"
        "finally:\n"
        "    print(sorted(m for m in sys.modules if m in ('vcfg.catalog.plugins', 'vcfg.lint.plugin_view')),"
        " file=sys.stderr)\n"
    )
    for text, want in (
        ("export VLLM_ASCEND_ENABLE_MLAPO=true\nvllm serve m\n", "[]"),
        (
            "export VLLM_PLUGINS=ascend\nexport VLLM_ASCEND_ENABLE_MLAPO=true\nvllm serve m\n",
            "['vcfg.catalog.plugins', 'vcfg.lint.plugin_view']",
        ),
    ):
        f = tmp_path / "run.sh"
        f.write_text(text)
        proc = subprocess.run([sys.executable, "-c", code, str(f)], capture_output=True, text=True, cwd=tmp_path)
        assert proc.stderr.strip().splitlines()[-1] == want, proc.stderr
        assert ("VC102" in proc.stdout) == (want != "[]")


def _run_envs_module(text, env):
    """The plugin's own envs.py run with ``env`` as the whole environment: {name: value
    or the exception type it raises}.  Test-only: vcfg never runs a plugin's code."""
    import os
    from unittest import mock

    ns: dict = {}
    with mock.patch.dict(os.environ, env, clear=True):
        exec(compile(text, "envs.py", "exec"), ns)  # noqa: S102 - the oracle, in a test
        out = {}
        for name, fn in ns["env_variables"].items():
            try:
                out[name] = fn()
            except Exception as e:  # noqa: BLE001
                out[name] = type(e)
    return out


def test_overlay_agrees_with_running_the_test_plugins_envs(tmp_path):
    pc = _build(_wheel(tmp_path))
    _check_against_envs(pc, ENVS)


def _check_against_envs(pc, text):
    """Each variable's default is what the module gives with nothing set, and a value the
    overlay says makes the plugin raise does raise (and one it accepts does not)."""
    from vcfg.catalog.envparse import check_env_value

    unset = _run_envs_module(text, {})
    assert {e.name: e.default for e in pc.env_vars} == unset
    for probe in ("true", "1", "0", "abc", "2.5", ""):
        got = _run_envs_module(text, {e.name: probe for e in pc.env_vars})
        for e in pc.env_vars:
            raises = isinstance(got[e.name], type) and issubclass(got[e.name], Exception)
            assert (check_env_value(e, probe) is not None) == raises, (e.name, probe, got[e.name])


@pytest.mark.slow
def test_bundled_overlay_agrees_with_running_vllm_ascends_envs():
    """vllm-ascend's real envs.py (from its sdist) run with nothing set and with probe
    values: the bundled overlay's defaults and raise/accept verdicts are what it does."""
    import shutil

    ps, tmp = open_plugin(pl.BUNDLED_PLUGINS[0])
    try:
        text = ps.files.read("vllm_ascend/envs.py")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    pc = pl.find(pl.BUNDLED_PLUGINS[0])
    assert len(pc.env_vars) == 21
    _check_against_envs(pc, text)


def test_hover_on_a_variable_of_a_configured_plugin():
    """The language server's hover (vcfg/lsp/hover.py) answers from the project's
    plugins, with the plugin's file:line; without them the name is not vLLM's."""
    pytest.importorskip("lsprotocol")
    from vcfg.lint.config import LintConfig
    from vcfg.lint.engine import make_target
    from vcfg.lsp import hover

    line = ["export VLLM_ASCEND_ENABLE_NZ=2"]
    named = make_target("0.23.0", LintConfig(plugins=["vllm-ascend"]))
    md = hover.hover(line, 0, 10, "bash", named)[0]
    assert "read by the vllm-ascend 0.23.0.post1 plugin" in md and "`vllm_ascend/envs.py:92`" in md
    assert "`int = 1`" in md
    got = hover.hover(line, 0, 10, "bash", make_target("0.23.0", LintConfig()))
    assert got is None or "vllm_ascend/envs.py" not in got[0]
