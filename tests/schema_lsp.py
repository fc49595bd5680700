"""A minimal Language Server Protocol client over stdio, enough to drive
yaml-language-server in a test: open a document, wait for its diagnostics, ask for
completions and hovers.  Messages are JSON-RPC with ``Content-Length`` headers."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Optional

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
        [npm, "install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix", str(folder),
         f"yaml-language-server@{YAML_LS_VERSION}"],
        capture_output=True, text=True, timeout=600,
    )
    if proc.returncode != 0 or not script.is_file():
        raise RuntimeError(f"npm install failed:\n{proc.stderr[-2000:]}")
    return script


class LspClient:
    def __init__(self, argv: list[str], settings: dict[str, Any]) -> None:
        self.settings = settings
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, "NODE_NO_WARNINGS": "1"},
        )
        self._id = 0
        self._responses: dict[int, Any] = {}
        self.notifications: "queue.Queue[dict[str, Any]]" = queue.Queue()
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()

    # -- wire
    def _send(self, msg: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **msg}).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body)
        self.proc.stdin.flush()

    def _read_loop(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            if length is None:
                continue
            msg = json.loads(out.read(length))
            if "method" in msg and "id" in msg:
                self._answer(msg)
            elif "method" in msg:
                self.notifications.put(msg)
            else:
                with self._cond:
                    self._responses[msg["id"]] = msg
                    self._cond.notify_all()

    def _answer(self, msg: dict[str, Any]) -> None:
        """Requests from the server: configuration is answered, the rest acknowledged."""
        result: Any = None
        if msg["method"] == "workspace/configuration":
            result = [
                self.settings if item.get("section") == "yaml" else {}
                for item in msg["params"]["items"]
            ]
        self._send({"id": msg["id"], "result": result})

    def request(self, method: str, params: Any, timeout: float = 30) -> Any:
        with self._cond:
            self._id += 1
            rid = self._id
        self._send({"id": rid, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        with self._cond:
            while rid not in self._responses:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no answer to {method}")
                self._cond.wait(left)
            msg = self._responses.pop(rid)
        if "error" in msg:
            raise RuntimeError(f"{method}: {msg['error']}")
        return msg.get("result")

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    # -- LSP
    def initialize(self, root: Path) -> Any:
        result = self.request("initialize", {
            "processId": os.getpid(),
            "rootUri": root.as_uri(),
            "capabilities": {
                "workspace": {"configuration": True, "didChangeConfiguration": {"dynamicRegistration": False}},
                "textDocument": {
                    "completion": {"completionItem": {"snippetSupport": False, "documentationFormat": ["markdown", "plaintext"]}},
                    "hover": {"contentFormat": ["markdown", "plaintext"]},
                    "publishDiagnostics": {},
                },
            },
        })
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": {"yaml": self.settings}})
        return result

    def open(self, uri: str, text: str) -> None:
        self.notify("textDocument/didOpen", {
            "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}
        })

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
        result = self.request("textDocument/completion", {
            "textDocument": {"uri": uri}, "position": {"line": line, "character": character}
        })
        if isinstance(result, dict):
            return list(result.get("items", []))
        return list(result or [])

    def hover(self, uri: str, line: int, character: int) -> Optional[dict[str, Any]]:
        return self.request("textDocument/hover", {
            "textDocument": {"uri": uri}, "position": {"line": line, "character": character}
        })

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
