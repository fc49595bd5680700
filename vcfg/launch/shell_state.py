"""The bash interpreter's state: the shell's variables at one point, the context a
statement runs in, the jumps (``break``, ``return``, ``exit``) that end a body, and the
frames (a loop, a function) that keep the paths an undecided jump took out of them."""

from __future__ import annotations

from typing import Any, Optional

from vcfg.launch.model import Binding, Unknown, Word
from vcfg.records import TupleRecord, tuple_record

#: what `_State.current` gives for an array the state does not have
_ABSENT = object()


class _State:
    """The shell's variables at one point of the script."""

    __slots__ = ("vars", "arrays", "allexport", "positional", "env_unknowns", "ifs", "alts")

    def __init__(self) -> None:
        self.vars: dict[str, Binding] = {}
        #: name -> elements (None: an array whose content vcfg does not know)
        self.arrays: dict[str, Optional[tuple[Word, ...]]] = {}
        self.allexport = False
        #: $1 $2 ...; None when unknown (the script's own arguments)
        self.positional: Optional[list[Word]] = None
        self.env_unknowns: tuple[Unknown, ...] = ()
        self.ifs: Optional[str] = " \t\n"
        #: name -> (the merged binding, ((binding or None, path label), ...), decision):
        #: a variable an ``if``/``case`` on an input set differently, with its value on
        #: each path; valid while ``vars[name]`` is still the merged binding.  ``@name``:
        #: an array, (the merged elements, ((elements, path label), ...), decision),
        #: valid while ``arrays[name]`` is still the merged elements.  The variables and
        #: arrays of one decision (one if/case) take their values from one branch.
        self.alts: dict[str, tuple[Any, tuple[tuple[Any, str], ...], int]] = {}

    def current(self, key: str) -> Any:
        """What an ``alts`` key names now: ``vars[key]``; for ``@name``, ``arrays[name]``
        (an array the state does not have: a value no entry holds)."""
        if key[:1] == "@":
            return self.arrays.get(key[1:], _ABSENT)
        return self.vars.get(key)

    def copy(self) -> "_State":
        s = _State()
        s.vars = dict(self.vars)
        s.arrays = dict(self.arrays)
        s.allexport = self.allexport
        s.positional = None if self.positional is None else list(self.positional)
        s.env_unknowns = self.env_unknowns
        s.ifs = self.ifs
        s.alts = self.alts
        return s


class _Jump(Exception):
    """``break``, ``continue``, ``return`` or ``exit`` run on every path that reaches
    it: the rest of the loop body, function or script is not run.  ``cut``: no path
    goes on from here (each left by an ``exit``, or by a jump a `_Frame` keeps)."""

    def __init__(self, kind: str, n: int = 1) -> None:
        super().__init__(kind)
        self.kind = kind
        self.n = n


class _Frame:
    """A loop run or a function call that a jump in a branch vcfg cannot decide may
    leave: the state of each path that left it (and how), merged where the paths meet
    again (after the loop, at the next run of its body, after the call)."""

    __slots__ = ("kind", "jumps", "cuts", "left", "live")

    def __init__(self, kind: str) -> None:
        #: "loop" or "function"
        self.kind = kind
        #: (jump kind, the state on that path, the path's label)
        self.jumps: list[tuple[str, _State, str]] = []
        #: bumped at each such jump: what follows in the body runs on some paths only
        self.cuts = 0
        #: some paths left for good (a ``break``): later runs of the body are conditional
        self.left = False
        #: a loop: whether the interpreter's state is a path that goes on (else every
        #: path of the last run left it)
        self.live = True


@tuple_record
class _Ctx(TupleRecord):
    background: bool = False
    function: Optional[str] = None
    in_loop: bool = False
    conditional: bool = False
    iteration: Optional[str] = None
    #: inside a container (docker exec/run): the script's env does not reach it
    container: bool = False
    #: the path through the script this runs on, when it runs on some paths only
    #: (an eval of a string an ``if`` on an input changed)
    path: Optional[str] = None
    #: one path's run of a command read once per path: jumps in it are not followed
    nojump: bool = False
