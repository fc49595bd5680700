"""JSON-RPC over a child's stdio, as the Language Server Protocol frames it
(``Content-Length`` headers): the wire the `vcfg lsp` client (lsp_client.py) and the
yaml-language-server client (schema_lsp.py) share.  A reader thread keeps every
message; the child's requests are answered by `answer` (a subclass says how)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Optional


class LspError(RuntimeError):
    def __init__(self, method: str, error: dict[str, Any]) -> None:
        super().__init__(f"{method}: {error}")
        self.error = error


class JsonRpcProcess:
    def __init__(self, argv: list[str], cwd: Optional[Path] = None, env: Optional[dict[str, str]] = None) -> None:
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env={**os.environ, **(env or {})},
        )
        self._id = 0
        self._responses: dict[int, Any] = {}
        self.messages: list[dict[str, Any]] = []  # everything the child sent
        self.notifications: "queue.Queue[dict[str, Any]]" = queue.Queue()
        self.server_requests: list[dict[str, Any]] = []
        self._cond = threading.Condition()
        self.stderr_chunks: list[bytes] = []
        threading.Thread(target=self._read_loop, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def answer(self, msg: dict[str, Any]) -> Any:
        """The result for a request the child sent (None: acknowledged)."""
        return None

    # -- wire
    def _send(self, msg: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **msg}).encode("utf-8")
        self.send_raw(f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body)

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for chunk in iter(lambda: self.proc.stderr.read1(65536), b""):  # type: ignore[union-attr]
            self.stderr_chunks.append(chunk)

    @property
    def stderr(self) -> str:
        return b"".join(self.stderr_chunks).decode("utf-8", "replace")

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
            self.messages.append(msg)
            if "method" in msg and "id" in msg:
                self.server_requests.append(msg)
                self._send({"id": msg["id"], "result": self.answer(msg)})
            elif "method" in msg:
                self.notifications.put(msg)
            else:
                with self._cond:
                    self._responses[msg["id"]] = msg
                    self._cond.notify_all()

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
            raise LspError(method, msg["error"])
        return msg.get("result")

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})
