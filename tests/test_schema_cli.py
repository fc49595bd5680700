"""`vcfg schema` and `vcfg init-editor`: the commands, and the modeline editing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from vcfg.catalog import store
from vcfg.cli.commands import main
from vcfg.dev.schemas import SCHEMAS_DIR
from vcfg.schema.editor import find_modeline, init_editor, set_modeline

needs_catalogs = pytest.mark.skipif(not store.bundled_versions(), reason="no bundled catalogs")


def run(*args: str) -> "CliRunner.invoke":  # type: ignore[valid-type]
    return CliRunner().invoke(main, list(args))


# --------------------------------------------------------------------------- vcfg schema


@needs_catalogs
def test_schema_serve_equals_the_committed_file() -> None:
    r = run("schema", "serve", "--vllm-version", "0.33.0")
    assert r.exit_code == 0, r.stderr
    assert r.stdout == (SCHEMAS_DIR / "0.33.0" / "serve.schema.json").read_text(encoding="utf-8")


@needs_catalogs
def test_schema_options(tmp_path: Path) -> None:
    out = tmp_path / "kv.json"
    r = run("schema", "kv-transfer-config", "--vllm-version", "0.33", "--strict", "--draft", "2020-12", "-o", str(out))
    assert r.exit_code == 0, r.stderr
    assert "note: no catalog for vllm 0.33; using the catalog of 0.33.0" in r.stderr
    s = json.loads(out.read_text())
    assert s["$id"] == "https://vcfg.dev/schemas/0.33.0/kv-transfer-config.strict.2020-12.schema.json"
    jsonschema.Draft202012Validator.check_schema(s)
    v = jsonschema.Draft202012Validator(s)
    assert v.is_valid({"kv_connector": "NixlConnector", "kv_role": "kv_both"})
    assert not v.is_valid({"kv_connector": "NixlConnector", "kv_role": "kv_both", "kv_conector": 1})


@needs_catalogs
def test_schema_config_class_and_unknown_kind() -> None:
    r = run("schema", "EPLBConfig", "--vllm-version", "0.33.0")
    assert r.exit_code == 0 and json.loads(r.stdout)["title"].startswith("vLLM EPLBConfig")
    r = run("schema", "servve")
    assert r.exit_code == 2
    assert "no schema kind or config class 'servve'" in r.stderr and "serve" in r.stderr
    assert "Traceback" not in r.stderr


@needs_catalogs
def test_schema_from_a_catalog_file(tmp_path: Path) -> None:
    cat = store.load_exact("0.20.2")
    f = tmp_path / "mine.json"
    f.write_text(store.dumps(cat))
    r = run("schema", "env", "--catalog", str(f))
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["$id"].endswith("/0.20.2/env.schema.json")


@pytest.mark.slow
def test_schema_with_help_texts_from_a_vllm_source(tmp_path: Path) -> None:
    from vcfg.catalog.extract.source import from_version

    src = from_version("0.33.0")
    assert src.root is not None
    r = run("schema", "kv-transfer-config", "--vllm-version", "0.33.0", "--vllm-source", str(src.root))
    assert r.exit_code == 0, r.stderr
    s = json.loads(r.stdout)
    assert "help texts read from" in s["$comment"]
    committed = json.loads((SCHEMAS_DIR / "0.33.0" / "kv-transfer-config.schema.json").read_text())
    mine = s["properties"]["kv_role"]["markdownDescription"]
    base = committed["properties"]["kv_role"]["markdownDescription"]
    assert mine.endswith(base) and len(mine) > len(base) + 20  # vLLM's words come first


# --------------------------------------------------------------------------- modelines


def test_set_modeline_cases() -> None:
    text, status = set_modeline("model: x\n", "s.json")
    assert (text, status) == ("# yaml-language-server: $schema=s.json\nmodel: x\n", "added")
    assert set_modeline(text, "s.json") == (text, "unchanged")
    assert set_modeline(text, "t.json") == (text, "conflict")
    replaced, status = set_modeline(
        "# top\n# yaml-language-server: $schema=t.json\r\nport: 1\r\n", "s.json", force=True
    )
    assert status == "replaced"
    assert replaced == "# top\n# yaml-language-server: $schema=s.json\r\nport: 1\r\n"
    crlf, _ = set_modeline("\ufeffa: 1\r\nb: 2\r\n", "s.json")
    assert crlf == "\ufeff# yaml-language-server: $schema=s.json\r\na: 1\r\nb: 2\r\n"
    assert find_modeline(crlf) == (0, "s.json")


def test_init_editor_writes_schema_and_modelines(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    yaml_file = tmp_path / "conf" / "prefill.yaml"
    original = "model: m  # keep me\nport: 8000\n"
    yaml_file.write_text(original)
    (tmp_path / "kv.json").write_text("{}")
    built: list[tuple[str, bool]] = []

    def build(kind: str, strict: bool) -> dict:
        built.append((kind, strict))
        return {"$id": f"x/{kind}", "type": "object"}

    res = init_editor(["conf/prefill.yaml", "kv.json"], "0.33.0", build, cwd=str(tmp_path))
    schema = tmp_path / ".vcfg" / "schemas" / "0.33.0" / "serve.schema.json"
    assert json.loads(schema.read_text())["$id"] == "x/serve"
    assert yaml_file.read_text() == (
        "# yaml-language-server: $schema=../.vcfg/schemas/0.33.0/serve.schema.json\n" + original
    )
    assert res.settings == {
        "json.schemas": [{"fileMatch": ["/kv.json"], "url": "./.vcfg/schemas/0.33.0/kv-transfer-config.schema.json"}]
    }
    assert sorted(built) == [("kv-transfer-config", False), ("serve", False)]
    # again: nothing changes
    res2 = init_editor(["conf/prefill.yaml"], "0.33.0", build, cwd=str(tmp_path))
    assert res2.actions == ["conf/prefill.yaml: unchanged modeline (../.vcfg/schemas/0.33.0/serve.schema.json)"]


def test_init_editor_url_vscode_and_conflicts(tmp_path: Path) -> None:
    f = tmp_path / "a.yml"
    f.write_text("# yaml-language-server: $schema=other.json\nport: 1\n")
    never = lambda kind, strict: pytest.fail("no schema file is written with a URL")  # noqa: E731
    res = init_editor(["a.yml"], "0.20.2", never, base_url="https://example.org/s/", cwd=str(tmp_path))
    assert res.conflicts and f.read_text().startswith("# yaml-language-server: $schema=other.json")
    init_editor(
        ["a.yml"], "0.20.2", never, base_url="https://example.org/s", force=True, strict=True, cwd=str(tmp_path)
    )
    assert f.read_text() == (
        "# yaml-language-server: $schema=https://example.org/s/0.20.2/serve.strict.schema.json\nport: 1\n"
    )
    res = init_editor(["a.yml"], "0.20.2", never, base_url="https://example.org/s", vscode=True, cwd=str(tmp_path))
    assert res.settings == {"yaml.schemas": {"https://example.org/s/0.20.2/serve.schema.json": ["/a.yml"]}}


@needs_catalogs
def test_init_editor_command(tmp_path: Path) -> None:
    f = tmp_path / "serve.yaml"
    f.write_text("model: m\n")
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        r = run("init-editor", "--vllm-version", "0.20.2", "serve.yaml")
        assert r.exit_code == 0, r.stderr
        assert "wrote .vcfg/schemas/0.20.2/serve.schema.json" in r.stderr
        assert f.read_text().startswith("# yaml-language-server: $schema=.vcfg/schemas/0.20.2/serve.schema.json\n")
        f.write_text("# yaml-language-server: $schema=x.json\nmodel: m\n")
        r = run("init-editor", "serve.yaml")
        assert r.exit_code == 1 and "use --force" in r.stderr
        r = run("init-editor", "notes.txt")
        assert r.exit_code == 2 and "not a YAML or JSON file" in r.stderr
    finally:
        os.chdir(cwd)
