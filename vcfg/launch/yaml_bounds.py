"""A YAML loader whose aliases cannot blow up: the "billion laughs".

PyYAML composes an alias as a second reference to the anchored node, so nine
aliases of nine aliases of ... cost nothing to parse, but everything that walks
the document afterwards (constructing it, turning a value into JSON, finding
positions) walks every expanded copy.  `BoundedLoader` measures each document
once it is composed, counting a shared node once per reference (linear in the
distinct nodes, memoised), and refuses a document that expands to more than
`MAX_NODES` nodes or refers to itself (``&a [*a]``), with the position of the
first alias.  Real configs and manifests have a few hundred nodes.
"""

from __future__ import annotations

from typing import Any

import yaml

MAX_NODES = 100_000


class AliasBomb(yaml.MarkedYAMLError):
    pass


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


class BoundedLoader(yaml.SafeLoader):
    """`yaml.SafeLoader` that refuses a document whose aliases expand past
    `MAX_NODES` nodes, or that refers to itself (`AliasBomb`, a MarkedYAMLError)."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self._aliases: list[Any] = []

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            self._aliases.append(self.peek_event().start_mark)
        return super().compose_node(parent, index)

    def compose_document(self) -> Any:
        node = super().compose_document()
        if self._aliases:
            size = expanded_size(node)
            if size < 0 or size > MAX_NODES:
                what = ("an alias refers to a node that contains it" if size < 0 else
                        f"its aliases expand to more than {MAX_NODES:,} nodes; vcfg does not read it")
                raise AliasBomb("while reading the aliases of this document", self._aliases[0], what, self._aliases[0])
            self._aliases = []
        return node


def _bounded(kind: str, construct: Any) -> Any:
    def constructor(loader: Any, node: Any) -> Any:
        from vcfg.bounded import MAX_DIGITS

        text = str(node.value)
        if len(text) > MAX_DIGITS and sum(c.isdigit() for c in text) > MAX_DIGITS:
            raise yaml.constructor.ConstructorError(
                None, None, f"{kind} of more than {MAX_DIGITS} digits; vcfg does not read it", node.start_mark)
        return construct(loader, node)

    return constructor


# a YAML integer of thousands of digits: Python refuses to convert it, with no position
BoundedLoader.add_constructor("tag:yaml.org,2002:int", _bounded("an integer", yaml.SafeLoader.construct_yaml_int))
BoundedLoader.add_constructor("tag:yaml.org,2002:float", _bounded("a number", yaml.SafeLoader.construct_yaml_float))
