"""A small Language Server Protocol client over stdio for the `vcfg lsp` tests and
benchmark (the wire is tests/jsonrpc.py): every message kept, so a test can check that
none carries a traceback."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Optional

from jsonrpc import JsonRpcProcess, LspError  # noqa: F401  (LspError: for the tests)


class Client(JsonRpcProcess):
    def __init__(
        self, argv: Optional[list[str]] = None, cwd: Optional[Path] = None, env: Optional[dict[str, str]] = None
    ) -> None:
        #: the answer to the server's workspace/configuration requests (the vcfg section)
        self.configuration: Optional[dict[str, Any]] = None
        self._versions: dict[str, int] = {}
        super().__init__(argv or [sys.executable, "-m", "vcfg", "lsp"], cwd, env)

    def answer(self, msg: dict[str, Any]) -> Any:
        if msg["method"] != "workspace/configuration":
            return None
        return [self.configuration or {}] * len(msg.get("params", {}).get("items", []))

    # -- LSP
    def initialize(
        self, root: Path, *, pull: bool = False, options: Any = None, encodings: Optional[list[str]] = None
    ) -> Any:
        td: dict[str, Any] = {
            "completion": {"completionItem": {"snippetSupport": False, "documentationFormat": ["markdown"]}},
            "hover": {"contentFormat": ["markdown"]},
            "publishDiagnostics": {"versionSupport": True},
            "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "source"]}}},
        }
        if pull:
            td["diagnostic"] = {"dynamicRegistration": False}
        caps: dict[str, Any] = {"textDocument": td, "workspace": {"configuration": True}}
        if encodings:
            caps["general"] = {"positionEncodings": encodings}
        result = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "capabilities": caps,
                "initializationOptions": options,
            },
        )
        self.notify("initialized", {})
        return result

    def open(self, uri: str, text: str, language: str = "shellscript") -> None:
        self._versions[uri] = 1
        self.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}
        )

    def change(self, uri: str, text: str, rng: Optional[dict[str, Any]] = None) -> int:
        """Replace the whole text (or ``rng`` with ``text``); the new version."""
        v = self._versions[uri] = self._versions.get(uri, 1) + 1
        change: dict[str, Any] = {"text": text}
        if rng is not None:
            change["range"] = rng
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v}, "contentChanges": [change]})
        return v

    def close_doc(self, uri: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def diagnostics(self, uri: str, version: Optional[int] = None, timeout: float = 30) -> list[dict[str, Any]]:
        """The next diagnostics published for ``uri`` (for ``version``, when given)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no diagnostics for {uri}")
            try:
                msg = self.notifications.get(timeout=left)
            except queue.Empty:
                continue
            if msg["method"] != "textDocument/publishDiagnostics" or msg["params"]["uri"] != uri:
                continue
            if version is not None and msg["params"].get("version") != version:
                continue
            return list(msg["params"]["diagnostics"])

    def pull(self, uri: str) -> list[dict[str, Any]]:
        r = self.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        return list(r["items"])

    def completion(self, uri: str, line: int, character: int) -> dict[str, Any]:
        r = self.request(
            "textDocument/completion",
            {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}},
        )
        if isinstance(r, list):
            return {"isIncomplete": False, "items": r}
        return r or {"isIncomplete": False, "items": []}

    def labels(self, uri: str, line: int, character: int) -> list[str]:
        return [i["label"] for i in self.completion(uri, line, character)["items"]]

    def hover(self, uri: str, line: int, character: int) -> Optional[dict[str, Any]]:
        return self.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}
        )

    def code_actions(self, uri: str, diags: list[dict[str, Any]], only: Optional[list[str]] = None) -> list[Any]:
        rng = diags[0]["range"] if diags else {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
        ctx: dict[str, Any] = {"diagnostics": diags}
        if only:
            ctx["only"] = only
        return (
            self.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": rng, "context": ctx}) or []
        )

    def command(self, name: str, *args: Any) -> Any:
        return self.request("workspace/executeCommand", {"command": name, "arguments": list(args)})

    def shutdown(self) -> int:
        self.request("shutdown", None, timeout=10)
        self.notify("exit", None)
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def position_of(text: str, needle: str, offset: int = 0) -> tuple[int, int]:
    """(line, character) of ``needle`` in ``text`` (ASCII text), plus ``offset``."""
    i = text.index(needle) + offset
    line = text.count("\n", 0, i)
    return line, i - (text.rfind("\n", 0, i) + 1)
