"""YAML documents as nodes with positions, composed once per file for every
reader that looks at it (detect and read of several readers share them), and
only as far as a reader reads: a reader of one document composes at most two
(to know there is no second), the Kubernetes reader stops at the launch cap.
20 MiB of small documents composed whole kept a million nodes alive (10,000
pods: 0.7 s to compose, 2 s more for the collector to walk them at exit)."""

from __future__ import annotations

from typing import Any, Iterator, Optional

import yaml

#: documents are composed until this many characters are read: 500 launches (the
#: cap per file) fit in far less, and 20 MiB of small documents took minutes
MAX_CHARS = 2 * 1024 * 1024
#: path -> where its documents stopped being read, as of the last `documents` call for
#: that path (for the note `vcfg.launch.read` adds right after the read); a path read
#: again in full (a resident process: the buffer got shorter) is taken out.  Documents
#: are composed as read, so a stop is known once a reader has read that far
STOPPED: dict[str, int] = {}


class Documents:
    """The documents of a YAML text, composed as they are asked for.  ``error`` and
    ``stopped`` tell what composing has met so far: a reader that needs to know the
    whole text parses reads to the end (`complete`)."""

    __slots__ = ("path", "_source", "_loader", "_done", "_end", "_nodes", "_passed", "error", "stopped")

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self._source = text
        self._loader: Any = None
        #: nothing more to compose (the end, an error or `MAX_CHARS`)
        self._done = False
        #: where the last document composed ends
        self._end = 0
        self._nodes: list[Any] = []
        #: documents `stream` composed without keeping them (the loader is past them)
        self._passed = 0
        #: (message, character index) when the text is not valid YAML
        self.error: Optional[tuple[str, int]] = None
        #: the character index where reading stopped (`MAX_CHARS`), None: not stopped
        self.stopped: Optional[int] = None

    def head(self, n: int) -> tuple[Any, ...]:
        """The first ``n`` documents (fewer when the text has fewer, or composing
        stopped at an error or at `MAX_CHARS` before)."""
        while len(self._nodes) < n and self._more():
            pass
        return tuple(self._nodes[:n])

    def single(self) -> Optional[Any]:
        """The text's one document: None when it has none, several, or an error
        in the first two."""
        nodes = self.head(2)
        return nodes[0] if len(nodes) == 1 and self.error is None else None

    def complete(self) -> Documents:
        """Every document (up to `MAX_CHARS`): ``error`` is then the text's."""
        while self._more():
            pass
        return self

    def __iter__(self) -> Iterator[Any]:
        i = 0
        while i < len(self._nodes) or self._more():
            yield self._nodes[i]
            i += 1

    def stream(self) -> Iterator[Any]:
        """Every document, as `__iter__`, but those not composed yet are not kept: the
        one reader that reads a file to its end does not hold 2 MiB of small documents
        in memory (30,000 ConfigMaps: 470 MB, and seconds for the collector at exit)."""
        self._rewind()
        yield from list(self._nodes)
        while True:
            node = self._compose()
            if node is _END:
                return
            self._passed += 1
            yield node

    def _rewind(self) -> None:
        """After `stream`: the loader is past documents not kept, so start again."""
        if self._passed:
            self._close()
            self._passed, self._done, self._end = 0, False, 0
            self._nodes, self.error, self.stopped = [], None, None

    def _more(self) -> bool:
        """Compose one more document and keep it; False when there is none."""
        self._rewind()
        node = self._compose()
        if node is _END:
            return False
        self._nodes.append(node)
        return True

    def _compose(self) -> Any:
        """The next document's node, or `_END` (none left, an error, `MAX_CHARS`)."""
        if self._done:
            return _END
        try:
            if self._loader is None:
                from vcfg.launch.yaml_bounds import BoundedLoader

                self._loader = BoundedLoader(self._source)
            loader = self._loader
            if not loader.check_node():
                return self._finish()
            if self._end > MAX_CHARS:
                self.stopped = STOPPED[self.path] = self._end
                return self._finish()
            node = loader.get_node()
            self._end = node.end_mark.index if node is not None else 0
            return node
        except yaml.MarkedYAMLError as e:
            mark = e.problem_mark or e.context_mark
            self.error = (f"invalid YAML: {e.problem or e.context}", mark.index if mark else 0)
        except (yaml.YAMLError, RecursionError, ValueError) as e:
            self.error = (f"invalid YAML: {e}", 0)
        return self._finish()

    def _finish(self) -> Any:
        self._done = True
        self._close()
        return _END

    def _close(self) -> None:
        if self._loader is not None:
            self._loader.dispose()
        self._loader = None


#: no document left
_END = object()


_CACHE: dict[tuple[str, str], Documents] = {}


def documents(path: str, text: str) -> Documents:
    key = (path, text)
    hit = _CACHE.get(key)
    if hit is None:
        hit = _CACHE[key] = Documents(path, text)
        while len(_CACHE) > 8:
            del _CACHE[next(iter(_CACHE))]
    if hit.stopped is not None:
        STOPPED[path] = hit.stopped
    else:
        STOPPED.pop(path, None)
    return hit


def mapping(node: Any) -> dict[str, Any]:
    """A mapping node's scalar keys -> value nodes ({} for anything else)."""
    out: dict[str, Any] = {}
    if isinstance(node, yaml.MappingNode):
        for kn, vn in node.value:
            if isinstance(kn, yaml.ScalarNode):
                out[kn.value] = vn
    return out


def scalar(node: Any) -> Optional[str]:
    return node.value if isinstance(node, yaml.ScalarNode) else None
