"""The control structure of a script that decides which launches run at the same time:
the branches of each ``if``/``case``, loop bodies, and the commands that stop
background jobs (``kill``, ``wait``, ...).  Read from the syntax tree the shell front end
already has; the run rules use it (``vcfg/lint/rules/_hosts.py``)."""

from __future__ import annotations

from typing import Any

from vcfg.records import TupleRecord, tuple_record

_STOPS = {"kill", "wait", "pkill", "killall"}
_LOOPS = {"for_statement", "c_style_for_statement", "while_statement"}


@tuple_record
class Shape(TupleRecord):
    """Byte offsets in the script."""

    #: (start, end, start of the if/case, branch id) of every if/case branch
    branches: tuple[tuple[int, int, int, str], ...] = ()
    #: (start, end) of every loop body
    loops: tuple[tuple[int, int], ...] = ()
    #: starts of kill / wait / pkill / killall commands outside function bodies (a
    #: function's body runs where it is called, not where it is written)
    stops: tuple[int, ...] = ()
    #: the order (`Invocation.seq`) of every kill / wait / pkill / killall the script
    #: runs, in a function body where it is called: one between two launches stops the first
    stop_seqs: tuple[int, ...] = ()


def _after_exit(
    branches: list[tuple[int, int, int, str]], parts: list[Any], body: list[Any], node: Any, data: bytes
) -> None:
    """A branch whose body runs ``exit`` ends its paths: what the script runs after the
    ``if``/``case`` never runs together with what the branch started (a pseudo
    if/case of two branches, keyed by the branch's negated start)."""
    from vcfg.launch.shell_tree import runs_exit

    if not runs_exit(body, data):
        return
    key = -(parts[0].start_byte + 1)
    for p in parts:
        branches.append((p.start_byte, p.end_byte, key, "exits"))
    branches.append((node.end_byte, len(data) + 1, key, "after"))


def script_shape(root: Any, data: bytes) -> Shape:
    """The `Shape` of a tree-sitter-bash tree of ``data``."""
    branches: list[tuple[int, int, int, str]] = []
    loops: list[tuple[int, int]] = []
    stops: list[int] = []
    stack = [(root, False)]
    while stack:
        node, in_func = stack.pop()
        t = node.type
        if t == "if_statement":
            after_then = False
            then: list[Any] = []
            for ch in node.children:
                if not ch.is_named:
                    if ch.type == "then":
                        after_then = True
                    continue
                if ch.type in ("elif_clause", "else_clause"):
                    branches.append((ch.start_byte, ch.end_byte, node.start_byte, f"{ch.type}@{ch.start_byte}"))
                    if not in_func:
                        _after_exit(branches, [ch], list(ch.children), node, data)
                elif after_then:
                    branches.append((ch.start_byte, ch.end_byte, node.start_byte, "then"))
                    then.append(ch)
            if then and not in_func:
                _after_exit(branches, then, then, node, data)
        elif t == "case_statement":
            for ch in node.children:
                if ch.type == "case_item":
                    branches.append((ch.start_byte, ch.end_byte, node.start_byte, f"item@{ch.start_byte}"))
                    if not in_func:
                        _after_exit(branches, [ch], list(ch.children), node, data)
        elif t in _LOOPS:
            body = node.child_by_field_name("body")
            if body is not None:
                loops.append((body.start_byte, body.end_byte))
        elif t == "command" and not in_func:
            name = node.child_by_field_name("name")
            word = data[name.start_byte : name.end_byte].decode("utf-8", "replace") if name is not None else ""
            if word.rsplit("/", 1)[-1] in _STOPS:
                stops.append(node.start_byte)
        func = in_func or t == "function_definition"
        stack.extend((ch, func) for ch in node.children if ch.is_named)
    return Shape(tuple(branches), tuple(loops), tuple(sorted(stops)))
