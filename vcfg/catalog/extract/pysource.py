"""Small helpers over Python's ``ast`` shared by the extractors."""

from __future__ import annotations

import ast


def dotted(node: ast.AST) -> str:
    """``os.path.join`` for an Attribute chain of Names, else ''."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""
