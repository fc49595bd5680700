"""A YAML loader whose aliases cannot blow up: the "billion laughs".

PyYAML composes an alias as a second reference to the anchored node, so nine
aliases of nine aliases of ... cost nothing to parse, but everything that walks
the document afterwards (constructing it, turning a value into JSON, finding
positions) walks every expanded copy.  `BoundedLoader` measures each document
once it is composed, counting a shared node once per reference (linear in the
distinct nodes, memoised), and refuses a document that expands to more than
`MAX_NODES` nodes or refers to itself (``&a [*a]``), with the position of the
first alias.  Real configs and manifests have a few hundred nodes.

Speed: PyYAML's pure-Python parser reads about 200 KB a second, so a manifest near
the 20 MiB size cap took minutes; its libyaml parser (``yaml.CSafeLoader``, built
into PyYAML's wheels) reads the same nodes with the same marks (character indexes)
ten to twenty times faster, and is used when present.  Both loaders first look for
a character YAML refuses (a control character, or a byte that was not UTF-8, which
the readers decode as a lone surrogate) and report it at its index: PyYAML's own
error for it has no position, and libyaml fails on a surrogate with a codec error.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

MAX_NODES = 100_000


class AliasBomb(yaml.MarkedYAMLError):
    pass


class BadCharacter(yaml.MarkedYAMLError):
    pass


#: what YAML does not allow in a stream (PyYAML's Reader.NON_PRINTABLE); lone
#: surrogates are the readers' surrogateescape of bytes that were not UTF-8
_NON_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def check_characters(text: Any) -> None:
    """Raise `BadCharacter` at the first character YAML refuses (str input only)."""
    if not isinstance(text, str):
        return
    m = _NON_PRINTABLE.search(text)
    if m is None:
        return
    i, c = m.start(), m.group()
    line = text.count("\n", 0, i) + text.count("\r", 0, i) - text.count("\r\n", 0, i)
    col = i - max(text.rfind("\n", 0, i), text.rfind("\r", 0, i)) - 1
    mark = yaml.Mark("<text>", i, line, col, None, None)
    if 0xDC80 <= ord(c) <= 0xDCFF:
        what = f"the file is not valid UTF-8 here (byte 0x{ord(c) - 0xDC00:02X})"
    else:
        what = f"YAML does not allow the control character U+{ord(c):04X} here"
    raise BadCharacter(None, None, what, mark)


def expanded_size(root: Any, limit: int = MAX_NODES) -> int:
    """Nodes under ``root`` with every alias expanded (stops past ``limit``);
    -1 for a node that contains itself."""
    sizes: dict[int, int] = {}
    busy: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            busy.discard(key)
            total = 1
            for child in _children(node):
                total += sizes[id(child)]
                if total > limit:
                    break
            sizes[key] = min(total, limit + 1)
            continue
        if key in sizes:
            continue
        if key in busy:
            return -1
        busy.add(key)
        stack.append((node, True))
        for child in _children(node):
            ck = id(child)
            if ck in busy:
                return -1
            if ck not in sizes:
                stack.append((child, False))
    return sizes.get(id(root), 0)


def _children(node: Any) -> list[Any]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _refuse(size: int, mark: Any) -> None:
    if size < 0 or size > MAX_NODES:
        what = (
            "an alias refers to a node that contains it"
            if size < 0
            else f"its aliases expand to more than {MAX_NODES:,} nodes; vcfg does not read it"
        )
        raise AliasBomb("while reading the aliases of this document", mark, what, mark)


class PyBoundedLoader(yaml.SafeLoader):
    """`yaml.SafeLoader` that refuses a document whose aliases expand past
    `MAX_NODES` nodes, or that refers to itself (`AliasBomb`, a MarkedYAMLError)."""

    def __init__(self, stream: Any) -> None:
        check_characters(stream)
        super().__init__(stream)
        self._aliases: list[Any] = []

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            self._aliases.append(self.peek_event().start_mark)
        return super().compose_node(parent, index)

    def compose_document(self) -> Any:
        node = super().compose_document()
        if self._aliases:
            _refuse(expanded_size(node), self._aliases[0])
            self._aliases = []
        return node


_CSafeLoader: Any = getattr(yaml, "CSafeLoader", None)

if _CSafeLoader is not None:

    class CBoundedLoader(_CSafeLoader):  # type: ignore[misc,valid-type]
        """The same bounds on libyaml's parser: a document is measured once composed
        when the text has a ``*`` at all (no alias without one); the position of
        its first alias is found by reading the events again (C speed)."""

        def __init__(self, stream: Any) -> None:
            check_characters(stream)
            super().__init__(stream)
            self._stream = stream
            self._may_alias = ("*" if isinstance(stream, str) else b"*") in stream
            self._docs = 0

        def get_node(self) -> Any:
            return self._measured(super().get_node())

        def get_single_node(self) -> Any:
            return self._measured(super().get_single_node())

        def _measured(self, node: Any) -> Any:
            k = self._docs
            self._docs += 1
            if node is not None and self._may_alias:
                size = expanded_size(node)
                if size < 0 or size > MAX_NODES:
                    _refuse(size, self._first_alias(k) or node.start_mark)
            return node

        def _first_alias(self, k: int) -> Any:
            events = _CSafeLoader(self._stream)
            doc = -1
            try:
                while events.check_event():
                    ev = events.get_event()
                    if isinstance(ev, yaml.DocumentStartEvent):
                        doc += 1
                    elif isinstance(ev, yaml.AliasEvent) and doc == k:
                        return ev.start_mark
            except yaml.YAMLError:
                pass
            finally:
                events.dispose()
            return None

    BoundedLoader: Any = CBoundedLoader
else:
    BoundedLoader = PyBoundedLoader


def _bounded(kind: str, construct: Any) -> Any:
    def constructor(loader: Any, node: Any) -> Any:
        from vcfg.bounded import MAX_DIGITS

        text = str(node.value)
        if len(text) > MAX_DIGITS and sum(c.isdigit() for c in text) > MAX_DIGITS:
            raise yaml.constructor.ConstructorError(
                None, None, f"{kind} of more than {MAX_DIGITS} digits; vcfg does not read it", node.start_mark
            )
        return construct(loader, node)

    return constructor


# a YAML integer of thousands of digits: Python refuses to convert it, with no position
for _loader in {PyBoundedLoader, BoundedLoader}:
    _loader.add_constructor("tag:yaml.org,2002:int", _bounded("an integer", yaml.SafeLoader.construct_yaml_int))
    _loader.add_constructor("tag:yaml.org,2002:float", _bounded("a number", yaml.SafeLoader.construct_yaml_float))
