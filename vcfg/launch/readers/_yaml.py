"""YAML documents as nodes with positions, composed once per file for every
reader that looks at it (detect and read of several readers share them)."""

from __future__ import annotations

from typing import Any, Optional

import yaml

from vcfg.records import tuple_record


@tuple_record
class Documents:
    """The nodes of every document of a YAML text, or where it stopped parsing."""

    nodes: tuple[Any, ...]
    #: (message, character index) when the text is not valid YAML
    error: Optional[tuple[str, int]] = None
    #: the character index where reading stopped (`MAX_CHARS`), None: all read
    stopped: Optional[int] = None


#: documents are composed until this many characters are read: 500 launches (the
#: cap per file) fit in far less, and 20 MiB of small documents took minutes
MAX_CHARS = 2 * 1024 * 1024
#: path -> where its documents stopped being read, as of the last `documents` call for
#: that path (for the note `vcfg.launch.read` adds right after the read); a path read
#: again in full (a resident process: the buffer got shorter) is taken out
STOPPED: dict[str, int] = {}


_CACHE: dict[tuple[str, str], Documents] = {}


def documents(path: str, text: str) -> Documents:
    key = (path, text)
    hit = _CACHE.get(key)
    if hit is None:
        hit = _CACHE[key] = _compose(text)
        while len(_CACHE) > 8:
            del _CACHE[next(iter(_CACHE))]
    if hit.stopped is not None:
        STOPPED[path] = hit.stopped
    else:
        STOPPED.pop(path, None)
    return hit


def _compose(text: str) -> Documents:
    nodes: list[Any] = []
    try:
        from vcfg.launch.yaml_bounds import BoundedLoader

        loader = BoundedLoader(text)
        try:
            while loader.check_node():
                nodes.append(loader.get_node())
                end = nodes[-1].end_mark.index if nodes[-1] is not None else 0
                if end > MAX_CHARS and loader.check_node():
                    return Documents(tuple(nodes), None, end)
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        return Documents(tuple(nodes), (f"invalid YAML: {e.problem or e.context}", mark.index if mark else 0))
    except (yaml.YAMLError, RecursionError, ValueError) as e:
        return Documents(tuple(nodes), (f"invalid YAML: {e}", 0))
    return Documents(tuple(nodes))


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
