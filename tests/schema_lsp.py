"""A minimal Language Server Protocol client over stdio, enough to drive
yaml-language-server in a test: open a document, wait for its diagnostics, ask for
completions and hovers (the wire is tests/jsonrpc.py)."""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any, Optional

from jsonrpc import JsonRpcProcess

#: The release the tests pin: 1.24.0 runs on Node 20 (2.x needs Node 22).
YAML_LS_VERSION = "1.24.0"


def install_yaml_language_server(cache: Path) -> Path:
    """``npm install`` yaml-language-server into ``cache`` once; the server's script."""
    folder = cache / f"yaml-language-server-{YAML_LS_VERSION}"
    script = folder / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
    if script.is_file():
        return script
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is not installed")
    folder.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [
            npm,
            "install",
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
            "--prefix",
            str(folder),
            f"yaml-language-server@{YAML_LS_VERSION}",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if proc.returncode != 0 or not script.is_file():
        raise RuntimeError(f"npm install failed:\n{proc.stderr[-2000:]}")
    return script


class LspClient(JsonRpcProcess):
    def __init__(self, argv: list[str], settings: dict[str, Any]) -> None:
        self.settings = settings
        super().__init__(argv, env={"NODE_NO_WARNINGS": "1"})

    def answer(self, msg: dict[str, Any]) -> Any:
        """Configuration is answered (the yaml section), the rest acknowledged."""
        if msg["method"] != "workspace/configuration":
            return None
        return [self.settings if item.get("section") == "yaml" else {} for item in msg["params"]["items"]]

    # -- LSP
    def initialize(self, root: Path) -> Any:
        result = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "capabilities": {
                    "workspace": {"configuration": True, "didChangeConfiguration": {"dynamicRegistration": False}},
                    "textDocument": {
                        "completion": {
                            "completionItem": {
                                "snippetSupport": False,
                                "documentationFormat": ["markdown", "plaintext"],
                            }
                        },
                        "hover": {"contentFormat": ["markdown", "plaintext"]},
                        "publishDiagnostics": {},
                    },
                },
            },
        )
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": {"yaml": self.settings}})
        return result

    def open(self, uri: str, text: str) -> None:
        self.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}
        )

    def diagnostics(self, uri: str, timeout: float = 30, want: int = 1) -> list[dict[str, Any]]:
        """The first published diagnostics for ``uri`` with at least ``want`` entries."""
        deadline = time.monotonic() + timeout
        last: list[dict[str, Any]] = []
        while time.monotonic() < deadline:
            try:
                msg = self.notifications.get(timeout=max(0.05, deadline - time.monotonic()))
            except queue.Empty:
                break
            if msg["method"] == "textDocument/publishDiagnostics" and msg["params"]["uri"] == uri:
                last = msg["params"]["diagnostics"]
                if len(last) >= want:
                    return last
        return last

    def completion(self, uri: str, line: int, character: int) -> list[dict[str, Any]]:
        result = self.request(
            "textDocument/completion",
            {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}},
        )
        if isinstance(result, dict):
            return list(result.get("items", []))
        return list(result or [])

    def hover(self, uri: str, line: int, character: int) -> Optional[dict[str, Any]]:
        return self.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}
        )

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=5)
            self.notify("exit", None)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
