"""Completion and hover see the plugins a document loads, as lint does (VLLM_PLUGINS,
the project config's ``plugins``): the plugin's variables with their file:line in the
plugin, its connectors among the ``kv_connector`` values; over stdio."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

sys.path.insert(0, str(Path(__file__).parent))
from lsp_client import Client, position_of  # noqa: E402

from vcfg.lsp.plugins import assignments  # noqa: E402

KV = '{"kv_connector":"MooncakeConnectorV1","kv_role":"kv_producer"}'
BODY = f"export VLLM_ASCEND_ENABLE_MLAPO=1\nvllm serve m --kv-transfer-config '{KV}'\n"
PLUGINS = "export VLLM_PLUGINS=ascend,ascend_kv_connector\n"
VAR = "VLLM_ASCEND_ENABLE_MLAPO"
WHERE = "vllm_ascend/envs.py:87"


def test_assignments_in_each_form():
    lines = [
        "export VLLM_PLUGINS=ascend,ascend_kv_connector",
        "VLLM_PLUGINS='a,b' vllm serve m",
        "echo $VLLM_PLUGINS",
        "      - name: VLLM_PLUGINS",
        '        value: "ascend"',
        "      - VLLM_PLUGINS=c",
        "      VLLM_PLUGINS: d",
    ]
    assert assignments(lines) == [
        (0, ["ascend", "ascend_kv_connector"]),
        (1, ["a", "b"]),
        (3, ["ascend"]),
        (5, ["c"]),
        (6, ["d"]),
    ]


def _session(tmp_path: Path, text: str, config: str = ""):  # type: ignore[no-untyped-def]
    if config:
        (tmp_path / ".vcfg.toml").write_text(config)
    path = tmp_path / "run.sh"
    path.write_text(text)
    c = Client(cwd=tmp_path)
    c.initialize(tmp_path, options={"vcfg": {"vllmVersion": "0.23.0", "debounceMs": 0}})
    c.open(path.as_uri(), text)
    c.diagnostics(path.as_uri())
    return c, path.as_uri()


def _var_item(c: Client, uri: str, text: str):  # type: ignore[no-untyped-def]
    line, col = position_of(text, VAR, len("VLLM_ASC"))
    items = c.completion(uri, line, col)["items"]
    return next((i for i in items if i["label"] == VAR), None)


def _hover(c: Client, uri: str, text: str) -> str:
    line, col = position_of(text, VAR, 5)
    h = c.hover(uri, line, col)
    return h["contents"]["value"] if h else ""


def test_completion_and_hover_follow_vllm_plugins(tmp_path):
    text = PLUGINS + BODY
    c, uri = _session(tmp_path, text)
    try:
        item = _var_item(c, uri, text)
        assert item is not None and "plugin vllm-ascend" in item["detail"]
        assert WHERE in item["documentation"]["value"]
        md = _hover(c, uri, text)
        assert "not by vLLM" in md and WHERE in md
        # the connector values: the plugin's MooncakeConnectorV1, registered in the plugin
        line, col = position_of(text, '"MooncakeConnectorV1"', 1)
        items = c.completion(uri, line, col)["items"]
        mooncake = next(i for i in items if i["label"] == "MooncakeConnectorV1")
        assert "vllm_ascend/" in mooncake["documentation"]["value"]
        h = c.hover(uri, line, col + 3)
        assert h is not None and "plugin" in h["contents"]["value"] and "vllm_ascend/" in h["contents"]["value"]
        # the lint agrees: the plugin's variable is judged, its connector known
        codes = {d["code"] for d in c.diagnostics(uri, version=c.change(uri, text.replace("MLAPO=1", "MLAPO=x")))}
        assert "VC102" in codes and "VC027" not in codes
        assert c.shutdown() == 0
    finally:
        c.kill()


def test_without_the_plugin_named_nothing_of_it_is_offered_as_loaded(tmp_path):
    text = BODY + PLUGINS  # set after the launch's lines: not loaded where the cursor is
    c, uri = _session(tmp_path, text)
    try:
        item = _var_item(c, uri, text)
        assert item is None or WHERE not in (item.get("documentation") or {}).get("value", "")
        assert WHERE not in _hover(c, uri, text)
    finally:
        c.kill()


def test_the_project_configs_plugins(tmp_path):
    c, uri = _session(tmp_path, BODY, config='vllm-version = "0.23.0"\nplugins = ["vllm-ascend"]\n')
    try:
        item = _var_item(c, uri, BODY)
        assert item is not None and WHERE in item["documentation"]["value"]
        assert WHERE in _hover(c, uri, BODY)
    finally:
        c.kill()
