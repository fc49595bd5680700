"""Bash front end: a launch script -> `LaunchPlan`.

tree-sitter-bash gives an error-tolerant syntax tree with exact byte positions;
this module walks it as a tiny abstract interpreter: it keeps the shell's
variables (with exported-ness), expands every word of a command the way bash
would (quotes, escapes, ``$'...'``, ``${X:-d}``, ``$((...))``, word splitting
of unquoted expansions, arrays), and records each recognised launch with the
environment it would start with.

What it cannot know it marks: a `Hole` in a word (a command's output, a
variable the caller sets), an `Unknown` on the plan (``source`` of a file outside
the script's repository, ``eval`` of an unknown string, an unknown array).
Branches are merged (a variable that differs by branch becomes unknown after the
``if``, and a later command that starts a launch with it is read once per path),
loops with a known list of values are unrolled (up to `MAX_UNROLL` iterations),
other loops are run once with the variables they change made unknown.
Functions are run at each call with their arguments; a function never called is
run once at the end with unknown arguments.

The pieces: `shell_tree` (the tree and positions), `shell_words` (word building),
`shell_arith` (arithmetic), `shell_state` (variables and context),
`shell_commands` (the command table `classify` reads).

Nothing is executed; the only files read are those the script sources from its
own repository.
"""

from __future__ import annotations

import fnmatch
import os
import re
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Sequence

from vcfg.launch.chunks import CHUNK, Program, top_level
from vcfg.launch.model import (
    SERVE,
    VLLM_OTHER,
    Binding,
    EnvEvent,
    Hole,
    Invocation,
    LaunchPlan,
    LineIndex,
    ParseProblem,
    Run,
    Span,
    Unknown,
    Word,
    WrittenFile,
    _new,
    join_spans,
)
from vcfg.launch.shell_arith import Arith, _arith_eval_text
from vcfg.launch.shell_commands import (
    _PLACEHOLDER_RE,
    _PY_RE,
    _SSH_VALUED,
    _STOPS,
    CONTAINERS,
    OTHER_SERVER,
    RAY_JOB_SUBMIT_VALUED,
    RUNNERS,
    SHELLS,
    TMUX_ENTER,
    TMUX_RUNS,
    TMUX_VALUED,
    VLLM_LAUNCHES,
    VLLM_PROGRAMS,
    VLLM_WORD,
    WRAPPERS,
    _basename,
    _endpoints,
    module_kind,
    program_kind,
    script_kind,
)
from vcfg.launch.shell_state import _Ctx, _Frame, _Jump, _State
from vcfg.launch.shell_tree import (
    _FileLoc,
    _ts_parse,
    _WordLoc,
    parse_tree,
)
from vcfg.launch.shell_words import (
    _ANSI,
    HOLE_MARK,
    _Acc,
    _array_join,
    _assume,
    _brace_expand,
    _common_head,
    _cut,
    _first_open,
    _hole_word,
    _is_words_hole,
    _option_with_value,
    _positional,
    _simple_output,
    _spaced,
    _split_fields,
    _synth,
    mask_holes,
    unmask_holes,
)
from vcfg.regex import lazy

#: Loops with a known list of at most this many values are unrolled.
MAX_UNROLL = 64
#: loop iterations unrolled in one script, all loops together (nested loops of 64
#: values each would otherwise run 64 x 64 x 64 bodies); past it a loop runs its body
#: once with its variables unknown, and a VC000 note says so
MAX_UNROLLED = 2048
#: launches read from one script; past it the rest are not followed (a VC000 note)
from vcfg.launch.model import MAX_LAUNCHES  # noqa: E402  (one cap for every reader)

#: statements run in one script (branches, unrolled loop bodies, function calls and
#: sourced files included): past it reading stops, with a VC000 note.  A statement
#: costs 20-40 us, so 50,000 are about 2 s; the corpus' busiest script runs 1,359
MAX_STEPS = 50_000

#: Statement nesting deeper than this is skipped (with a problem).
MAX_DEPTH = 120
#: ``eval``/``bash -c`` strings are parsed at most this deep.
MAX_NESTED = 4
#: Function calls are followed at most this deep.
MAX_CALLS = 8
#: A launch whose words an ``if`` on an input changed is read once per path, for at
#: most this many paths (more: its words are unknown).
MAX_PATHS = 8
#: a `case` pattern that matches itself only (no glob, quote or expansion)
_PLAIN_PATTERN = re.compile(r"[A-Za-z0-9_.,:/=+@%-]+")
#: Larger inputs are not parsed at all: the one size cap of every reader (20 MiB)
from vcfg.fileio import MAX_BYTES  # noqa: E402

_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_INT_RE = lazy(r"\s*[-+]?\d+\s*\Z")
#: ``$X``, ``"$X"``, ``${X}``, ``"${X:-}"``: a test's operand that is one variable
_PLAIN_VAR = lazy(r'"?\$\{?([A-Za-z_][A-Za-z0-9_]*)(?::?-[^}]*)?\}?"?')
#: a doc placeholder of several words that bash reads as `<` and `>` redirections
_MULTI_WORD_PLACEHOLDER = lazy(r"<[A-Za-z][\w.-]*(?:[ \t]+[\w.-]+)+>")
_STMT_TYPES = frozenset(
    {
        "command",
        "variable_assignment",
        "variable_assignments",
        "declaration_command",
        "unset_command",
        "redirected_statement",
        "pipeline",
        "list",
        "subshell",
        "compound_statement",
        "if_statement",
        "case_statement",
        "for_statement",
        "c_style_for_statement",
        "while_statement",
        "function_definition",
        "negated_command",
        "test_command",
        "ERROR",
    }
)
_LITERAL_TYPES = frozenset({"word", "number", "raw_string"})
_EXPANSION_TYPES = frozenset(
    {
        "simple_expansion",
        "expansion",
        "command_substitution",
        "arithmetic_expansion",
        "process_substitution",
    }
)

_BLANK_AFTER_BACKSLASH = lazy(rb"\\[ \t\x0b\x0c][ \t\x0b\x0c]*\Z")
#: a byte that is not a blank, a backslash or a newline
_TAIL_OTHER = lazy(rb"[^ \t\\\x0b\x0c\n]")


def _logical_line_end(data: bytes, start: int) -> int:
    """Where the line holding ``start`` ends, continuations (backslash-newline) followed."""
    pos = start
    while True:
        nl = data.find(b"\n", pos)
        if nl < 0:
            return len(data)
        k = nl
        while k > start and data[k - 1 : k] == b"\\":
            k -= 1
        if (nl - k) % 2 == 0:  # an even run of backslashes escapes none of the newline
            return nl
        pos = nl + 1


_INT_TESTS: dict[str, Callable[[int, int], bool]] = {
    "-eq": lambda a, b: a == b,
    "-ne": lambda a, b: a != b,
    "-lt": lambda a, b: a < b,
    "-le": lambda a, b: a <= b,
    "-gt": lambda a, b: a > b,
    "-ge": lambda a, b: a >= b,
}
_NAME_AT = lazy(rb"[A-Za-z_][A-Za-z0-9_]*")


# --------------------------------------------------------------------------- interpreter


def _past_options(
    argv: Sequence[Word], i: int, valued: Callable[[str], bool], unknown_operand: bool = False
) -> Optional[int]:
    """The index of the first operand at or after ``i`` (past the options and a
    ``--``; an option for which ``valued`` holds takes the next word), or None when a
    word before it is not known (``unknown_operand``: a word vcfg cannot compute that
    does not start with ``-`` is the first operand, as a string with a variable in it)."""
    n = len(argv)
    while i < n:
        t = argv[i].text
        if t is None:
            if unknown_operand and not argv[i].value.startswith("-") and not argv[i].may_split:
                return i
            return None
        if t == "--":
            return i + 1
        if t.startswith("-") and len(t) > 1:
            i += 2 if valued(t) else 1
            continue
        break
    return i


class _Interp(Arith):
    def __init__(
        self,
        data: bytes,
        path: str,
        environ: Optional[Mapping[str, str]],
        args: Optional[Sequence[str]],
        li: Optional[LineIndex] = None,
    ) -> None:
        self.path = path
        self.data = data
        self.li = li if li is not None else LineIndex(data, path)
        self.main_li = self.li
        self.loc: Any = _FileLoc(self.li)
        #: files being read for `source` (against cycles)
        self.sourcing: list[str] = []
        self.st = _State()
        self.environ = dict(environ) if environ is not None else None
        self.problems: list[ParseProblem] = []
        self.unknowns: list[Unknown] = []
        self.starts: list[Word] = []  # scripts run or sourced (`bash x.sh`, `source x.sh`)
        self.timeline: list[EnvEvent] = []
        self.invocations: list[Invocation] = []
        #: loop bodies unrolled so far (`MAX_UNROLLED`), and the limits already noted
        self.unrolled = 0
        self.noted: set[str] = set()
        self.written: list[WrittenFile] = []
        self.functions: dict[str, tuple[Any, bytes, Any, _State, LineIndex]] = {}
        self.called: set[str] = set()
        self.call_stack: list[str] = []
        #: file offsets of the statements running now on behalf of the script's top
        #: level (a function call, an eval): where a launch or a kill in a body
        #: takes effect; -1 for a function run once because nothing calls it
        self.sites: list[int] = []
        #: where kill / wait / pkill / killall run, for a body run from elsewhere
        self.stop_sites: list[int] = []
        #: the order in which launches and stops run (a counter, never rewound), and
        #: the order of each kill / wait / pkill / killall that ran
        self.seq = 0
        self.stop_seqs: list[int] = []
        #: the unknown parts of strings run by eval / bash -c (`mask_holes`): the value
        #: of ``${__vcfg_hole_K}`` is hole_words[K]
        self.hole_words: list[Word] = []
        #: the shell of each tmux pane keys are typed into (`tmux`): by the target as written
        self.panes: dict[str, _State] = {}
        self.decisions = 0
        #: ids of nodes a misparsed word before them took (`_bare_dollar`)
        self.consumed: set[int] = set()
        self.nested = 0
        self.locals_stack: list[dict[str, Optional[Binding]]] = []
        #: the loops and function calls running now (`_Frame`), innermost last
        self.frames: list[_Frame] = []
        self.depth = 0
        self.too_deep = False
        #: statements run so far (`MAX_STEPS`)
        self.steps = 0
        #: the note of a cap that stopped reading (kept apart: a sourced file's own
        #: problems are dropped when it ends)
        self.cap_note: Optional[ParseProblem] = None
        if args is not None:
            sp = self.li.span(0, 0)
            self.st.positional = [_synth(a, sp) for a in args]

    # -- small utilities
    def text(self, n: Any) -> str:
        return self.data[n.start_byte : n.end_byte].decode("utf-8", "surrogateescape")

    def span(self, n: Any) -> Span:
        return self.loc.span(n.start_byte, n.end_byte)

    def problem(self, code: str, message: str, span: Span) -> None:
        self.problems.append(ParseProblem(code, message, span))

    def unknown(self, kind: str, reason: str, span: Span, env: bool = False) -> Unknown:
        u = Unknown(kind, reason, span)
        self.unknowns.append(u)
        if env:
            self.st.env_unknowns = self.st.env_unknowns + (u,)
        return u

    def event(
        self, kind: str, name: Optional[str], value: Optional[Word], exported: bool, span: Span, ctx: _Ctx
    ) -> EnvEvent:
        ev = EnvEvent(
            kind, name, value, exported, span, ctx.conditional or ctx.in_loop or ctx.function is not None, ctx.function
        )
        self.timeline.append(ev)
        return ev

    # -- variables
    def set_var(
        self,
        name: str,
        value: Optional[Word],
        span: Span,
        ctx: _Ctx,
        *,
        export: Optional[bool] = None,
        kind: str = "assign",
    ) -> None:
        old = self.st.vars.get(name)
        if export is None:
            exported = self.st.allexport or (old is not None and old.exported and not old.unset)
        else:
            exported = export
        if value is None and old is not None and not old.unset:
            value = old.value
        self.st.vars[name] = Binding(name, value, exported, span, False, "script")
        if name == "IFS":
            self.st.ifs = value.text if value is not None else " \t\n"
        self.event(kind, name, value, exported, span, ctx)

    def lookup(self, name: str) -> Optional[Binding]:
        b = self.st.vars.get(name)
        if b is not None:
            return b
        if name in self.st.arrays:
            arr = self.st.arrays[name]
            sp = self.li.span(0, 0)
            if arr is None or (arr and arr[0].may_split):
                return Binding(name, _hole_word(f"array {name} is not known", sp), False, sp)
            return Binding(name, arr[0] if arr else Word("", sp), False, sp)
        if self.environ is not None and name in self.environ:
            sp = self.li.span(0, 0)
            return Binding(name, _synth(self.environ[name], sp), True, sp, False, "caller")
        if (
            self.hole_words
            and name.startswith("__vcfg_hole_")
            and name[12:].isdigit()
            and int(name[12:]) < len(self.hole_words)
        ):
            w = self.hole_words[int(name[12:])]
            return Binding(name, w, False, w.span)
        return None

    # ------------------------------------------------------------------ driver
    def run(self, pieces: Iterable[Sequence[Any]]) -> None:
        """Run the script's top-level statements (`vcfg.launch.chunks.top_level`)."""
        try:
            self._run(pieces)
        except _LaunchCap:
            return  # MAX_LAUNCHES read, or MAX_STEPS run: nothing else is

    def _run(self, pieces: Iterable[Sequence[Any]]) -> None:
        try:
            ctx = _Ctx()
            for children in pieces:
                self.exec_seq(children, ctx)
        except _Jump:
            return  # `exit` (or `return` at the top level): nothing else runs
        self.run_uncalled()

    def run_uncalled(self) -> None:
        """Functions defined but never called: run once with unknown arguments."""
        for name, (node, data, loc, st, li) in list(self.functions.items()):
            if name in self.called or li is not self.main_li:
                continue  # called, or a library function of a sourced file
            self.called.add(name)
            saved = (self.st, self.data, self.loc, self.li)
            self.st = st.copy()
            self.st.positional = None
            self.data, self.loc, self.li = data, loc, li
            try:
                self.sites.append(-1)
                try:
                    self.call_body(name, node, _Ctx(function=name, conditional=True))
                except _Jump:
                    pass
                finally:
                    self.sites.pop()
            finally:
                self.st, self.data, self.loc, self.li = saved

    def exec_pieces(self, pieces: Iterable[Sequence[Any]], ctx: _Ctx) -> None:
        """`exec_seq` over a script's top-level statements, a piece at a time (`top_level`)."""
        for children in pieces:
            self.exec_seq(children, ctx)

    def exec_seq(self, children: Sequence[Any], ctx: _Ctx) -> None:
        n = len(children)
        prev = None
        # a jump in a branch vcfg cannot decide left the loop or function on some
        # paths: what follows runs on the others only
        fr = self.frames[-1] if self.frames else None
        cuts = fr.cuts if fr is not None else 0
        for i in range(n):
            if fr is not None and fr.cuts != cuts and not ctx.conditional:
                ctx = ctx._replace(conditional=True)
            c = children[i]
            t = c.type
            if t == "comment" or not c.is_named:
                if t == "comment":
                    prev = c
                continue
            bg = False
            j = i + 1
            while j < n and not children[j].is_named and children[j].type in (";", "\n"):
                j += 1
            if j < n and children[j].type == "&" and not children[j].is_named:
                bg = True
            self.check_split(c, prev)
            prev = c
            self.exec_stmt(c, ctx._replace(background=True) if bg else ctx)

    def check_split(self, c: Any, prev: Any) -> None:
        """Report a line of options that bash runs as its own command."""
        node = c
        if node.type == "redirected_statement":
            node = node.child_by_field_name("body") or node
        if node.type != "command":
            return
        name = node.child_by_field_name("name")
        if name is None:
            return
        t = self.text(name)
        if not t.startswith("-") or t == "-":
            return
        if prev is not None and prev.type == "comment" and self.text(prev).rstrip().endswith("\\"):
            self.problem(
                "split-command",
                f"the comment on line {prev.start_point[0] + 1} ends the continued command; "
                f"'{t}' and what follows run as a separate command",
                self.span(c),
            )
        else:
            self.problem(
                "split-command",
                f"'{t}' starts a new command: is a '\\' missing at the end of the line before?",
                self.span(c),
            )

    def exec_stmt(self, node: Any, ctx: _Ctx) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            self.stop_reading(node)
        if self.depth > MAX_DEPTH:
            if not self.too_deep:
                self.too_deep = True
                self.problem("too-deep", "nesting too deep; the rest of this block is not read", self.span(node))
            return
        self.depth += 1
        try:
            m = getattr(self, "s_" + node.type, None)
            if m is not None:
                m(node, ctx)
        except RecursionError:
            if not self.too_deep:
                self.too_deep = True
                self.problem("too-deep", "nesting too deep to analyse", self.span(node))
        finally:
            self.depth -= 1

    # ------------------------------------------------------------------ statements
    def s_ERROR(self, node: Any, ctx: _Ctx) -> None:
        # reported by the problem scan; still read the commands it holds
        self.exec_seq([c for c in node.children if c.type in _STMT_TYPES or not c.is_named], ctx)

    def s_program(self, node: Any, ctx: _Ctx) -> None:
        self.exec_seq(node.children, ctx)

    def s_compound_statement(self, node: Any, ctx: _Ctx) -> None:
        self.exec_seq(node.children, ctx)

    s_do_group = s_compound_statement

    def s_subshell(self, node: Any, ctx: _Ctx) -> None:
        saved = self.st
        self.st = saved.copy()
        try:
            self.exec_seq(node.children, ctx)
        except _Jump as j:
            if j.kind not in ("exit", "cut"):
                raise
        finally:
            self.st = saved

    def s_negated_command(self, node: Any, ctx: _Ctx) -> None:
        self.exec_seq(node.children, ctx)

    def s_test_command(self, node: Any, ctx: _Ctx) -> None:
        return

    def s_list(self, node: Any, ctx: _Ctx) -> None:
        # `a && b || c`: each part runs when the status of the one before (true or
        # false, when vcfg can tell) lets it; a part that may or may not run is
        # conditional
        cond = False
        last: Optional[bool] = True
        op = None
        skipped: list[tuple[_State, str]] = []  # the states where a part did not run
        for c in _list_items(node):
            if not c.is_named:
                if c.type in ("||", "&&"):
                    op = c.type
                continue
            if c.type == "comment":
                continue
            if op is not None:
                if last is None:
                    cond = True
                elif (op == "&&") != last:
                    continue  # skipped; the status stays
            if not cond:
                self.exec_stmt(c, ctx)
                last = self.eval_condition([c])
                continue
            # a part that may not run: a jump in it (`curl ... || break`) leaves on
            # the paths where it runs; the others go on with the state before it
            base = self.st.copy()
            runs = f"the `{op}` at line {self._line(c)} runs `{self.text(c)[:40]}`"
            try:
                self.exec_stmt(c, ctx._replace(conditional=True))
            except _Jump as j:
                self.leave(j, runs, ctx)
                self.st = base
                last = None
                continue
            last = self.eval_condition([c])
            if self.st.vars != base.vars or self.st.arrays != base.arrays:
                skipped.append((base, f"the `{op}` at line {self._line(c)} does not run `{self.text(c)[:40]}`"))
        if skipped:
            # what a part that may not run set holds on the paths where it ran only
            # (`[[ -n "$P" ]] && ARGS+=(--tool-call-parser "$P")`), as for an `if`
            # without `else`; the parts after it in the list ran on those paths
            labels = [f"the list at line {self._line(node)} runs to its end", *(label for _, label in skipped)]
            self.st = self.merge([self.st, *(st for st, _ in skipped)], self.span(node), labels)

    def s_pipeline(self, node: Any, ctx: _Ctx) -> None:
        # every element runs in a subshell: assignments do not survive
        for c in node.children:
            if c.is_named and c.type != "comment":
                saved = self.st
                self.st = saved.copy()
                try:
                    self.exec_stmt(c, ctx)
                except _Jump as j:
                    if j.kind not in ("exit", "cut"):
                        raise
                finally:
                    self.st = saved

    def s_function_definition(self, node: Any, ctx: _Ctx) -> None:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is None or body is None:
            return
        self.functions[self.text(name_node)] = (body, self.data, self.loc, self.st.copy(), self.li)

    def s_variable_assignments(self, node: Any, ctx: _Ctx) -> None:
        for c in node.children:
            if c.type == "variable_assignment":
                self.s_variable_assignment(c, ctx)

    def s_variable_assignment(
        self, node: Any, ctx: _Ctx, *, export: Optional[bool] = None, kind: str = "assign"
    ) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        if name_node.type == "subscript":
            base = name_node.child_by_field_name("name")
            nm = self.text(base) if base is not None else self.text(name_node)
            self.st.arrays[nm] = None
            self.unknown("array", f"element assignment to array {nm}", self.span(node))
            return
        name = self.text(name_node)
        value_node = node.child_by_field_name("value")
        append = any(c.type == "+=" for c in node.children if not c.is_named)
        sp = self.span(node)
        if value_node is not None and value_node.type == "array":
            elems: list[Word] = []
            for c in value_node.children:
                if c.is_named and c.type != "comment":
                    elems.extend(self.expand(c))
            if append and name in self.st.arrays:
                old_arr = self.st.arrays[name]
                arr = None if old_arr is None else old_arr + tuple(elems)
            else:
                arr = tuple(elems)
            self.st.arrays[name] = arr
            self.st.vars.pop(name, None)
            self.event(kind, name, arr[0] if arr else None, False, sp, ctx)
            return
        if value_node is None:
            value = Word("", sp)
        else:
            value = self.expand_value(value_node)
        if append:
            old = self.lookup(name)
            if old is None and self.environ is None:  # appended to the caller's value, if any
                old = Binding(name, _hole_word(f"${name} is not set by this script", sp), True, sp, False, "caller")
            if old is not None and old.value is not None:
                acc = _Acc()
                acc.word(old.value, False)
                acc.word(value, False)
                value = acc.finish(value.span, value.raw)[0]
        if name in self.st.arrays:
            arr = self.st.arrays[name]
            self.st.arrays[name] = None if arr is None or (arr and arr[0].may_split) else (value,) + arr[1:]
        self.set_var(name, value, sp, ctx, export=export, kind=kind)

    def s_declaration_command(self, node: Any, ctx: _Ctx) -> None:
        kw = node.children[0].type if node.children else ""
        export: Optional[bool] = None
        kind = "assign"
        local = kw == "local" or (kw in ("declare", "typeset") and ctx.function is not None)
        if kw == "export":
            export, kind = True, "export"
        functions = False
        is_array = False
        for c in node.children[1:]:
            if self.consumed and c.id in self.consumed:
                continue
            if c.type in ("word", "test_operator") or (
                c.type == "concatenation" and self.text(c).startswith(("-", "+"))
            ):
                opt = self.text(c)
                if opt.startswith("-") and not opt.startswith("--"):
                    if "n" in opt and kw == "export":
                        export, kind = False, "unexport"
                    if "x" in opt:
                        export, kind = True, "export"
                    if "f" in opt:
                        functions = True
                    if "g" in opt:
                        local = False
                    if "a" in opt or "A" in opt:
                        is_array = True
                elif opt.startswith("+") and "x" in opt:
                    export, kind = False, "unexport"
                continue
            if functions:
                continue
            if c.type == "variable_assignment":
                nm_node = c.child_by_field_name("name")
                nm = self.text(nm_node) if nm_node is not None else ""
                if local:
                    self.remember_local(nm)
                self.s_variable_assignment(
                    c, ctx, export=export, kind=kind if not local or kind == "export" else "local"
                )
            elif c.type == "variable_name":
                nm = self.text(c)
                if local:
                    self.remember_local(nm)
                    if nm not in self.st.vars:
                        self.set_var(nm, None, self.span(node), ctx, export=bool(export), kind="local")
                    continue
                if is_array and nm not in self.st.arrays:
                    self.st.arrays[nm] = ()
                    continue
                old = self.st.vars.get(nm)
                if export is None:
                    continue
                if old is None:
                    b = self.lookup(nm)
                    value = b.value if b is not None else None
                else:
                    value = old.value if not old.unset else None
                self.st.vars[nm] = Binding(nm, value, export, self.span(node), False, "script")
                self.event(kind, nm, value, export, self.span(node), ctx)
            elif c.is_named and c.type not in ("comment",):
                self.unknown("indirection", f"'{kw}' of a computed name", self.span(c))

    def remember_local(self, name: str) -> None:
        if self.locals_stack and name not in self.locals_stack[-1]:
            self.locals_stack[-1][name] = self.st.vars.get(name)

    def s_unset_command(self, node: Any, ctx: _Ctx) -> None:
        funcs = False
        for c in node.children[1:]:
            t = self.text(c)
            if c.type in ("word", "test_operator") and t.startswith("-"):
                funcs = "f" in t
                continue
            if not c.is_named:
                continue
            if funcs:
                self.functions.pop(t, None)
                continue
            words = self.expand(c)
            for w in words:
                name = w.text
                if name is None or not _NAME_RE.match(name):
                    self.unknown("indirection", "unset of a computed name", self.span(c))
                    continue
                sp = self.span(node)
                self.st.arrays.pop(name, None)
                self.st.vars[name] = Binding(name, None, False, sp, True, "script")
                self.event("unset", name, None, False, sp, ctx)

    def s_if_statement(self, node: Any, ctx: _Ctx) -> None:
        # [(condition nodes, body nodes)], else body
        branches: list[tuple[list[Any], list[Any]]] = []
        else_body: Optional[list[Any]] = None
        cond: list[Any] = []
        body: list[Any] = []
        phase = "cond"
        for c in node.children:
            t = c.type
            if not c.is_named:
                if t in ("if",):
                    phase = "cond"
                elif t == "then":
                    phase = "body"
                elif t == "fi":
                    break
                elif phase == "cond":
                    cond.append(c)
                else:
                    body.append(c)
                continue
            if t == "elif_clause" or t == "else_clause":
                continue
            (cond if phase == "cond" else body).append(c)
        branches.append((cond, body))
        for c in node.children:
            if c.type == "elif_clause":
                ec: list[Any] = []
                eb: list[Any] = []
                ph = "cond"
                for d in c.children:
                    if not d.is_named and d.type == "then":
                        ph = "body"
                        continue
                    if not d.is_named and d.type == "elif":
                        continue
                    (ec if ph == "cond" else eb).append(d)
                branches.append((ec, eb))
            elif c.type == "else_clause":
                else_body = [d for d in c.children if not (not d.is_named and d.type == "else")]
        self.decide(
            [n for cond, _ in branches for n in cond],
            ctx,
            node,
            lambda c: self.run_branches(branches, else_body, c, node),
        )

    def decide(self, tests: list[Any], ctx: _Ctx, node: Any, run: Callable[[_Ctx], None]) -> None:
        """Run an ``if`` or ``case`` (``run``) once per path when its ``tests`` read a
        variable an earlier ``if``/``case`` set differently and a launch is inside it:
        on each path the test may be decided (``case "$ROLE" in head) ...`` then
        ``if [ "$ROLE" = head ]; then vllm serve ...``: the launch runs on the head path
        only, with that path's variables)."""
        if self.st.alts:
            names: list[str] = []
            for t in tests:
                names.extend(k for k in self.path_names(t) if k not in names)
            if names and self.fork(names, ctx, self.span(node), run):
                return
        run(ctx)

    def run_branches(
        self,
        branches: list[tuple[list[Any], list[Any]]],
        else_body: Optional[list[Any]],
        ctx: _Ctx,
        node: Any,
        pins: Sequence[Optional[Binding]] = (),
    ) -> None:
        """``pins[k]``: a variable's value on the paths of branch k (a `case` subject
        where the branch's one pattern is a plain word)."""
        bctx = ctx._replace(conditional=True)
        results: list[_State] = []
        labels: list[str] = []
        what = "`case`" if node.type == "case_statement" else "`if`"
        at = node.start_point[0] + 1
        ended = 0  # undecided branches that run `exit`: their paths end there
        exited: list[list[Any]] = []  # their conditions: false on the paths that go on
        left = 0  # undecided branches whose paths all left a loop or function
        undecided = False  # a branch before this one may or may not have run
        for k, (cond, body) in enumerate(branches):
            self.exec_seq(cond, ctx)
            verdict = self.eval_condition(cond)
            if verdict is False:
                continue
            pin = pins[k] if k < len(pins) else None
            first = cond[0] if cond else (body[0] if body else node)
            label = (
                f"the test at line {self._line(first)} is true"
                if cond
                else f"the {what} at line {at} takes the branch at line {self._line(first)}"
            )
            base = self.st
            self.st = base.copy()
            if pin is not None:
                self.st.vars[pin.name] = pin
            if verdict is None or undecided:
                how = self.run_maybe(body, bctx, label, ctx)
                if how == "live":
                    results.append(self.st)
                    labels.append(label)
                elif how == "exit":
                    ended += 1
                    exited.append(cond)
                else:
                    left += 1
            else:
                self.exec_seq(body, ctx)  # a jump here is taken on every path
                results.append(self.st)
                labels.append(label)
            self.st = base
            if verdict is True:
                break
            undecided = True
        else:
            label = (
                f"the {what} at line {at} takes no branch"
                if else_body is None
                else f"the {what} at line {at} takes its `*)` branch"
                if node.type == "case_statement"
                else f"the {what} at line {at} takes its `else` branch"
            )
            if else_body is not None:
                base = self.st
                self.st = base.copy()
                for c in exited:  # the else branch runs where every test was false
                    self.narrow_false(c, self.st)
                how = self.run_maybe(else_body, bctx, label, ctx)
                if how == "live":
                    results.append(self.st)
                    labels.append(label)
                elif how == "exit":
                    ended += 1
                else:
                    left += 1
                self.st = base
            else:
                results.append(self.st.copy())
                labels.append(label)
                for c in exited:
                    self.narrow_false(c, results[-1])
        if not results and (ended or left):
            # every path through it exits, or leaves by a jump a frame keeps
            raise _Jump("cut" if left else "exit")
        if not results:
            return
        if len(results) == 1:
            self.st = results[0]
        else:
            self.st = self.merge(results, self.span(node), labels)

    def narrow_false(self, cond: Sequence[Any], st: Optional[_State]) -> None:
        """On the paths past ``if [ -z "$X" ]; then ... exit; fi`` (also ``||`` of such
        tests) X is not empty: an empty default assumed for the caller's X (``${X:-}``)
        becomes an unknown value there, not the ''  bash never passes on."""
        if st is None:
            return
        tests: list[Any] = []
        todo = [c for c in cond if c.is_named]
        while todo:
            n = todo.pop()
            if n.type == "list" and all(c.type == "||" for c in n.children if not c.is_named):
                todo.extend(c for c in n.children if c.is_named)
            elif n.type == "test_command":
                todo.extend(c for c in n.children if c.is_named)
            elif n.type == "binary_expression" and self.text(n.child_by_field_name("operator") or n) == "||":
                todo.extend(c for c in (n.child_by_field_name("left"), n.child_by_field_name("right")) if c)
            elif n.type == "unary_expression":
                tests.append(n)
        for e in tests:
            op = e.child_by_field_name("operator")
            args = [c for c in e.children if c.is_named and c is not op and c.type != "test_operator"]
            if op is None or self.text(op) != "-z" or len(args) != 1:
                continue
            m = _PLAIN_VAR.fullmatch(self.text(args[0]))
            b = st.vars.get(m.group(1)) if m else None
            if b is None or b.value is None or b.value.value or not b.value.assumptions:
                continue
            sp = self.span(args[0])
            hole = Hole(0, f"${b.name} from the caller: not empty here (the script exits when it is)", sp)
            st.vars[b.name] = Binding(
                b.name, Word("", b.value.span, "", (), (hole,)), b.exported, b.span, b.unset, b.source
            )

    def run_maybe(self, body: Sequence[Any], ctx: _Ctx, label: str, outer: _Ctx) -> str:
        """Run a branch that runs on some paths only: "live" when its paths go on after
        it (``self.st`` their state), "exit" when they end (an ``exit``), "left" when
        they left a loop or function by a jump (kept by its `_Frame`)."""
        try:
            self.exec_seq(body, ctx)
        except _Jump as j:
            return self.leave(j, label, outer)
        return "live"

    def leave(self, j: _Jump, label: str, ctx: _Ctx) -> str:
        """The paths of one branch (or ``||``/``&&`` part) that jump: kept by the frame
        the jump leaves, with their state now, to meet the paths that did not jump
        where bash would bring them together.  "exit", "left", or "live" for a jump
        bash ignores (``break`` outside a loop, ``return`` outside a function)."""
        if j.kind == "exit":
            return "exit"
        if j.kind == "cut":
            return "left"
        target: Optional[_Frame] = None
        passed: list[_Frame] = []
        if j.kind in ("break", "continue"):
            n = max(j.n, 1)
            for f in reversed(self.frames):
                passed.append(f)
                if f.kind == "loop":
                    target = f
                    n -= 1
                    if n == 0:
                        break
        elif j.kind == "return":
            for f in reversed(self.frames):
                passed.append(f)
                if f.kind == "function":
                    target = f
                    break
        if target is None:
            return "live"
        del passed[passed.index(target) + 1 :]
        if ctx.iteration:
            label = f"{label} ({ctx.iteration})"
        target.jumps.append((j.kind, self.st.copy(), label))
        for f in passed:
            f.cuts += 1
            if f is not target or j.kind == "break":
                f.left = True
        return "left"

    def _line(self, node: Any) -> int:
        """The line in the file of a node (of the script, or of an eval'd string)."""
        return self.loc.span(node.start_byte, node.start_byte).line

    def eval_condition(self, cond: list[Any]) -> Optional[bool]:
        """True/False when the condition is a test vcfg can decide, else None."""
        nodes = [c for c in cond if c.is_named and c.type != "comment"]
        if len(nodes) != 1:
            return None
        n0 = nodes[0]
        if n0.type == "negated_command":
            v = self.eval_condition([c for c in n0.children if c.is_named])
            return None if v is None else not v
        if n0.type == "command":
            # `true`, `false`, `:`, and `$flag` holding one of them
            if any(c.type not in ("command_name",) for c in n0.children if c.is_named):
                return None
            name = n0.child_by_field_name("name")
            words = self.expand(name.children[0]) if name is not None and name.children else []
            if len(words) == 1 and words[0].known and words[0].value in ("true", ":", "false"):
                return words[0].value != "false"
            return None
        if n0.type == "compound_statement" and self.text(n0).startswith("(("):
            kids = [c for c in n0.children if c.is_named]
            if len(kids) != 1:
                return None
            n = self.arith(kids[0], {})
            return None if n is None else n != 0
        if n0.type != "test_command":
            return None
        exprs = [c for c in n0.children if c.is_named]
        if len(exprs) != 1:
            return None
        e = exprs[0]
        if e.type == "binary_expression":
            left, right = e.child_by_field_name("left"), e.child_by_field_name("right")
            op = e.child_by_field_name("operator")
            if left is None or right is None or op is None:
                return None
            o = self.text(op)
            if o in _INT_TESTS:
                lw, rw = self.expand_value(left), self.expand_value(right)
                if lw.assumptions or rw.assumptions:
                    return None  # a default taken because the caller may not set it: both paths
                a, b = self.arith_text(lw.text), self.arith_text(rw.text)
                if a is None or b is None:
                    return None
                return _INT_TESTS[o](a, b)
            if o not in ("==", "=", "!="):
                return None
            lw, rw = self.expand_value(left), self.expand_value(right)
            if not lw.known or not rw.known or lw.assumptions or rw.assumptions:
                return None
            if right.type in ("string", "raw_string"):
                res = lw.value == rw.value
            else:
                res = fnmatch.fnmatchcase(lw.value, rw.value)
            return res if o != "!=" else not res
        if e.type == "unary_expression":
            op = e.child_by_field_name("operator")
            args = [c for c in e.children if c.is_named and c is not op and c.type != "test_operator"]
            if op is None or len(args) != 1:
                return None
            o = self.text(op)
            if o not in ("-z", "-n"):
                return None
            w = self.expand_value(args[0])
            if not w.known:
                if w.value:
                    return o == "-n"
                return None
            if w.assumptions:
                return None
            return (w.value == "") == (o == "-z")
        return None

    def merge(self, states: list[_State], span: Span, labels: Optional[list[str]] = None) -> _State:
        out = states[0].copy()
        # the paths of earlier decisions still hold for what no branch here changed
        out.alts = (
            {k: v for s in states for k, v in s.alts.items() if all(t.current(k) is v[0] for t in states)}
            if states[0].alts
            else {}
        )
        self.decisions += 1
        decision = self.decisions  # the variables one if/case set vary together
        names: set[str] = set()
        for s in states:
            names.update(s.vars)
        reason = f"set differently by the branches at line {span.line}"
        for name in names:
            bs = [s.vars.get(name) for s in states]
            first = bs[0]
            if all(b is first for b in bs):
                continue
            if all(
                b is not None
                and first is not None
                and b.unset == first.unset
                and b.exported == first.exported
                and b.value is not None
                and first.value is not None
                and b.value.known
                and first.value.known
                and b.value.value == first.value.value
                for b in bs
            ):
                continue
            exported = any(b is not None and b.exported for b in bs)
            if all(b is not None and b.unset for b in bs):
                out.vars[name] = bs[0]  # type: ignore[assignment]
                continue
            sp = next((b.span for b in bs if b is not None), span)
            if all(b is None or b.unset for b in bs):
                # unset on some paths, the caller's (if any) on the others
                out.vars[name] = Binding(
                    name, _hole_word(f"unset on some paths (line {span.line})", sp), True, sp, False, "caller"
                )
                continue
            # the words every path's value starts with stay known (`CMD="vllm serve m"`,
            # then `CMD="$CMD --x"` in some branches): a launch run through more paths
            # than are followed is still seen, its later words unknown
            head = _common_head([b.value for b in bs if b is not None and b.value is not None], len(bs), reason, sp)
            merged = out.vars[name] = Binding(name, head or _hole_word(reason, sp), exported, sp, False, "script")
            if (
                labels is not None
                and len(bs) <= MAX_PATHS
                and all(b is None or (not b.unset and b.value is not None) for b in bs)
            ):
                # the value on each path (its unknown parts unknown), for a launch that
                # needs it (`vcfg.launch.shell._Interp.fork`)
                pairs = _chain_paths(name, list(zip(bs, labels)), states, out.alts)
                if len(pairs) <= MAX_PATHS:
                    out.alts[name] = (merged, tuple(pairs), decision)
        anames: set[str] = set()
        for s in states:
            anames.update(s.arrays)
        for name in anames:
            arrs = [s.arrays.get(name, ()) for s in states]
            if any(a is not arrs[0] for a in arrs):
                joined = out.arrays[name] = _array_join(arrs, reason, span)
                if labels is not None and joined is not arrs[0] and len(arrs) <= MAX_PATHS and None not in arrs:
                    # the elements on each path, as for a variable (`ARGS+=(--port 8100)`
                    # in one branch of a `case`, `ARGS+=(--headless)` in another)
                    out.alts["@" + name] = (joined, tuple(zip(arrs, labels)), decision)
        out.allexport = any(s.allexport for s in states)
        if any(s.positional is not states[0].positional for s in states):
            pos = [s.positional for s in states]
            if not all(
                p is not None and pos[0] is not None and [w.value for w in p] == [w.value for w in pos[0]] for p in pos
            ):  # type: ignore[union-attr]
                out.positional = None
        seen: dict[Unknown, None] = {}
        for s in states:
            for u in s.env_unknowns:
                seen[u] = None
        out.env_unknowns = tuple(seen)
        return out

    def s_case_statement(self, node: Any, ctx: _Ctx) -> None:
        value = node.child_by_field_name("value")
        self.decide([value] if value is not None else [], ctx, node, lambda c: self.run_case(node, c))

    def run_case(self, node: Any, ctx: _Ctx) -> None:
        value = node.child_by_field_name("value")
        subject = self.expand_value(value) if value is not None else None
        items = [c for c in node.children if c.type == "case_item"]
        branches: list[tuple[list[Any], list[Any]]] = []
        pins: list[Optional[Binding]] = []
        chosen: Optional[list[Any]] = None
        catch_all: Optional[list[Any]] = None  # `*)`: taken where no branch before it is
        subject_var = self.subject_binding(value) if subject is not None and not subject.known else None
        for it in items:
            pats = []
            body = []
            in_body = False
            for c in it.children:
                if not c.is_named:
                    if c.type == ")":
                        in_body = True
                    elif in_body and c.type in ("&", ";"):
                        body.append(c)  # `a) vllm serve m & ;;`: started in the background
                    continue
                if not in_body:
                    pats.append(c)
                else:
                    body.append(c)
            if subject is not None and subject.known:
                ok: Optional[bool] = False
                for p in pats:
                    pw = self.expand_value(p)
                    if not pw.known:
                        ok = None
                        break
                    if fnmatch.fnmatchcase(subject.value, pw.value):
                        ok = True
                        break
                if ok is True and not branches:
                    chosen = body
                    break
                if ok is True:
                    catch_all = body
                    break
                if ok is False:
                    continue
            elif any(self.text(p) == "*" for p in pats):
                if not branches:
                    chosen = body
                else:
                    catch_all = body
                break
            pin = None
            if subject_var is not None and len(pats) == 1 and _PLAIN_PATTERN.fullmatch(self.text(pats[0])):
                pin = subject_var._replace(value=self.expand_value(pats[0]))
            branches.append(([], body))
            pins.append(pin)
        if chosen is not None:
            self.exec_seq(chosen, ctx)
            return
        if not branches:
            return
        self.run_branches(branches, catch_all, ctx, node, pins)

    def subject_binding(self, value: Any) -> Optional[Binding]:
        """The script's own variable a `case` tests, when its subject is that variable
        alone (``case "$ROLE" in``, ``case $ROLE in``, ``case "${ROLE}" in``)."""
        n = value
        if n.type == "string":
            kids = [c for c in n.children if c.is_named]
            if len(kids) != 1 or self.text(n) != '"' + self.text(kids[0]) + '"':
                return None
            n = kids[0]
        if n.type not in ("simple_expansion", "expansion"):
            return None
        kids = [c for c in n.children if c.is_named]
        if len(kids) != 1 or kids[0].type != "variable_name":
            return None
        name = self.text(kids[0])
        if self.text(n) not in ("$" + name, "${" + name + "}"):
            return None
        b = self.st.vars.get(name)
        if b is None or b.unset or b.value is None or b.source != "script":
            return None
        return b

    # -- loops
    def assigned_names(self, node: Any) -> set[str]:
        out: set[str] = set()
        stack = [node]
        while stack:
            n = stack.pop()
            t = n.type
            if t == "variable_assignment":
                nm = n.child_by_field_name("name")
                if nm is not None:
                    if nm.type == "subscript":
                        b = nm.child_by_field_name("name")
                        if b is not None:
                            out.add(self.text(b))
                    else:
                        out.add(self.text(nm))
            elif t in ("for_statement",):
                v = n.child_by_field_name("variable")
                if v is not None:
                    out.add(self.text(v))
            elif t == "command":
                nm = n.child_by_field_name("name")
                if nm is not None and self.text(nm) == "read":
                    for a in n.children:
                        if a.type == "word" and not self.text(a).startswith("-"):
                            out.add(self.text(a))
            elif t == "function_definition":
                continue
            stack.extend(n.children)
        return out

    def array_appends(self, node: Any) -> set[str]:
        """The arrays ``node`` changes only by appending elements (``A+=(...)``): the
        elements such an array holds before a loop stay its head on every run."""
        app: set[str] = set()
        other: set[str] = set()
        stack = [node]
        while stack:
            n = stack.pop()
            t = n.type
            if t == "variable_assignment":
                nm = n.child_by_field_name("name")
                if nm is not None and nm.type == "subscript":
                    b = nm.child_by_field_name("name")
                    if b is not None:
                        other.add(self.text(b))
                elif nm is not None:
                    val = n.child_by_field_name("value")
                    plus = any(c.type == "+=" for c in n.children if not c.is_named)
                    (app if plus and val is not None and val.type == "array" else other).add(self.text(nm))
            elif t in ("declaration_command", "unset_command"):
                other.update(self.text(c) for c in n.children if c.type in ("variable_name", "word"))
            elif t == "command":
                nm = n.child_by_field_name("name")
                if nm is not None and self.text(nm) in ("read", "mapfile", "readarray"):
                    other.update(self.text(c) for c in n.children if c.type == "word")
            elif t == "function_definition":
                continue
            stack.extend(n.children)
        return app - other

    def widen(
        self,
        names: Iterable[str],
        span: Span,
        reason: str,
        *,
        keep: Iterable[str] = (),
        before: Optional[Mapping[str, Optional[tuple[Word, ...]]]] = None,
    ) -> None:
        """``names`` changed by a loop read once: unknown.  An array keeps a known head:
        before the body, the arrays in ``keep`` (`array_appends`) keep their elements
        followed by unknown words; after it, each keeps what it starts with both
        ``before`` the loop and after the body (the loop may not run)."""
        for name in names:
            old = self.st.vars.get(name)
            if name in self.st.arrays:
                arr = self.st.arrays[name]
                if before is not None:
                    arr = _array_join((before.get(name, ()), arr), reason, span)
                elif name in keep and arr:
                    arr = arr if _is_words_hole(arr[-1]) else arr + (_hole_word(reason, span, True),)
                else:
                    arr = None
                self.st.arrays[name] = arr
                continue
            exported = self.st.allexport or (old is not None and old.exported)
            self.st.vars[name] = Binding(name, _hole_word(reason, span), exported, span, False, "script")

    def loop_body(self, node: Any) -> Optional[Any]:
        return node.child_by_field_name("body")

    def s_for_statement(self, node: Any, ctx: _Ctx) -> None:
        var = node.child_by_field_name("variable")
        body = self.loop_body(node)
        if var is None or body is None:
            return
        name = self.text(var)
        values: list[Word] = []
        has_in = any(not c.is_named and c.type == "in" for c in node.children)
        if has_in:
            for c in node.children:
                if c.is_named and c is not var and c is not body and self._field_of(node, c) == "value":
                    values.extend(self.expand(c))
            known = all(w.known for w in values)
        else:
            pos = self.st.positional
            known = pos is not None
            values = list(pos or [])
        sp = self.span(node)
        lctx = ctx._replace(in_loop=True)
        if known and len(values) <= MAX_UNROLL and self.may_unroll(len(values), sp):
            fr = self.begin_loop()
            try:
                for w in values:
                    self.set_var(name, w, sp, lctx)
                    if self.loop_iteration(body, lctx._replace(iteration=f"{name}={w.value}"), fr) == "break":
                        break
            except BaseException:
                self.frames.remove(fr)
                raise
            self.end_loop(fr, sp)
            return
        names = self.assigned_names(body) | {name}
        before = dict(self.st.arrays)
        self.widen(names, sp, f"changed by the loop at line {sp.line}", keep=self.array_appends(body))
        self.loop_once(body, lctx, sp)
        self.widen(names, sp, f"changed by the loop at line {sp.line}", before=before)

    def may_unroll(self, n: int, sp: Span) -> bool:
        """Whether ``n`` more loop bodies fit in `MAX_UNROLLED` (counted if so)."""
        if self.unrolled + n <= MAX_UNROLLED:
            self.unrolled += n
            return True
        self.limit_note(
            "unroll",
            f"this loop is read once with its variable unknown: the script's loops "
            f"were already unrolled {self.unrolled:,} times (vcfg unrolls at most "
            f"{MAX_UNROLLED:,} loop bodies per script)",
            sp,
        )
        return False

    def stop_reading(self, node: Any) -> None:
        """`MAX_STEPS` statements run: a note where the next would run (in the script
        itself: the call, ``source`` or ``eval`` that runs it), and nothing else is read."""
        if self.li is self.main_li and self.loc.__class__ is _FileLoc:
            sp = self.span(node)
        else:
            site = self.sites[0] if self.sites and self.sites[0] >= 0 else 0
            sp = self.main_li.span(site, site)
        self.cap_note = ParseProblem(
            "limit",
            f"more than {MAX_STEPS:,} commands run in this script (loops, calls and branches included): "
            "vcfg stops reading it here, and nothing after is checked",
            sp,
        )
        raise _LaunchCap()

    def limit_note(self, key: str, message: str, sp: Span) -> None:
        """One VC000 note per limit and script: what vcfg did not follow."""
        if key not in self.noted:
            self.noted.add(key)
            self.problem("limit", message, sp)

    def begin_loop(self) -> _Frame:
        fr = _Frame("loop")
        self.frames.append(fr)
        return fr

    def loop_once(self, body: Any, ctx: _Ctx, sp: Span) -> None:
        """A loop whose runs vcfg does not count: its body read once."""
        fr = self.begin_loop()
        try:
            self.loop_iteration(body, ctx, fr)
        except BaseException:
            self.frames.remove(fr)
            raise
        self.end_loop(fr, sp)

    def loop_iteration(self, body: Any, ctx: _Ctx, fr: _Frame) -> Optional[str]:
        """One run of a loop body: "break" when no path goes on to the next run, else
        None.  A ``continue`` ends the run; paths that left the run by a jump in a
        branch vcfg cannot decide meet the others at the next run (``continue``) or
        after the loop (``break``, `end_loop`); a jump to an outer loop goes on up."""
        if fr.left:
            ctx = ctx._replace(conditional=True)  # some paths broke out in an earlier run
        start = len(fr.jumps)
        live = True
        try:
            self.exec_stmt(body, ctx)
        except _Jump as j:
            if j.kind == "cut":
                live = False
            elif j.kind in ("break", "continue") and j.n <= 1:
                if j.kind == "break":
                    if not fr.jumps:
                        return "break"  # every path breaks here: self.st is theirs
                    fr.jumps.append(("break", self.st, "the loop breaks" + _at(ctx)))
                    fr.left = True
                    live = False
            elif not fr.jumps:
                if j.kind in ("break", "continue"):
                    raise _Jump(j.kind, j.n - 1) from None
                raise
            else:
                # paths that left this loop earlier go on after it: this jump ends
                # (exit) or leaves (return, break 2) the paths that reach it only
                if j.kind in ("break", "continue"):
                    j = _Jump(j.kind, j.n - 1)
                    self.frames.remove(fr)
                    try:
                        how = self.leave(j, "the jump runs", ctx)
                    finally:
                        self.frames.append(fr)
                else:
                    how = self.leave(j, "the jump runs", ctx)
                if how == "live":
                    raise j from None
                live = False
        conts = [(st, label) for k, st, label in fr.jumps[start:] if k == "continue"]
        if conts:
            fr.jumps[start:] = [e for e in fr.jumps[start:] if e[0] != "continue"]
            if live:
                conts.append((self.st, "the body runs to its end" + _at(ctx)))
            self.st = (
                conts[0][0]
                if len(conts) == 1
                else self.merge([c[0] for c in conts], self.span(body), [c[1] for c in conts])
            )
            live = True
        fr.live = live
        return None if live else "break"

    def end_loop(self, fr: _Frame, sp: Span) -> None:
        """The state after a loop: the paths that broke out of it on the way, with the
        one that ran it to its end (or broke out on every path)."""
        self.frames.remove(fr)
        breaks = [(st, label) for k, st, label in fr.jumps if k == "break"]
        if not breaks:
            if not fr.live:
                raise _Jump("cut")
            return
        if fr.live:
            breaks.append((self.st, f"the loop at line {sp.line} runs without a `break`"))
        self.st = breaks[0][0] if len(breaks) == 1 else self.merge([b[0] for b in breaks], sp, [b[1] for b in breaks])

    def _field_of(self, parent: Any, child: Any) -> Optional[str]:
        for i, c in enumerate(parent.children):
            if c == child:
                return parent.field_name_for_child(i)
        return None

    def s_c_style_for_statement(self, node: Any, ctx: _Ctx) -> None:
        body = self.loop_body(node)
        if body is None:
            return
        init = node.child_by_field_name("initializer")
        cond = node.child_by_field_name("condition")
        upd = node.child_by_field_name("update")
        sp = self.span(node)
        lctx = ctx._replace(in_loop=True)
        env: dict[str, int] = {}
        iters: list[dict[str, int]] = []
        ok = True
        if init is not None:
            ok = self.arith(init, env) is not None
        while ok and len(iters) <= MAX_UNROLL:
            if cond is not None:
                c = self.arith(cond, env)
                if c is None:
                    ok = False
                    break
                if not c:
                    break
            iters.append(dict(env))
            if upd is not None and self.arith(upd, env) is None:
                ok = False
        names = self.assigned_names(body) | set(env)
        if ok and len(iters) <= MAX_UNROLL and self.may_unroll(len(iters), sp):
            final = env
            fr = self.begin_loop()
            try:
                for it in iters:
                    for k, v in it.items():
                        self.set_var(k, _synth(str(v), sp), sp, lctx)
                    desc = ",".join(f"{k}={v}" for k, v in it.items())
                    if self.loop_iteration(body, lctx._replace(iteration=desc), fr) == "break":
                        final = it
                        break
                if fr.live:
                    for k, v in final.items():
                        self.set_var(k, _synth(str(v), sp), sp, lctx)
            except BaseException:
                self.frames.remove(fr)
                raise
            self.end_loop(fr, sp)
            return
        before = dict(self.st.arrays)
        self.widen(names, sp, f"changed by the loop at line {sp.line}", keep=self.array_appends(body))
        self.loop_once(body, lctx, sp)
        self.widen(names, sp, f"changed by the loop at line {sp.line}", before=before)

    def s_while_statement(self, node: Any, ctx: _Ctx) -> None:
        body = self.loop_body(node)
        sp = self.span(node)
        cond = [c for c in node.children if c.is_named and c is not body and c.type in _STMT_TYPES]
        until = any(not c.is_named and c.type == "until" for c in node.children)
        verdict = self.eval_condition(cond)
        if verdict is None and len(cond) == 1 and cond[0].type == "command" and self.st.positional == []:
            name = cond[0].child_by_field_name("name")
            if name is not None and self.text(name) == "getopts":
                verdict = False  # no arguments: getopts fails at once
        if verdict is not None and verdict == until:
            for c in cond:
                self.exec_stmt(c, ctx)
            return  # the body never runs
        names = self.assigned_names(node)
        before = dict(self.st.arrays)
        self.widen(names, sp, f"changed by the loop at line {sp.line}", keep=self.array_appends(node))
        lctx = ctx._replace(in_loop=True)
        for c in node.children:
            if c.is_named and c is not body and c.type in _STMT_TYPES:
                self.exec_stmt(c, lctx)
        if body is not None:
            self.loop_once(body, lctx, sp)
        self.widen(names, sp, f"changed by the loop at line {sp.line}", before=before)

    # -- redirected statements
    def s_redirected_statement(self, node: Any, ctx: _Ctx, extra_pipeline: bool = False) -> None:
        body = node.child_by_field_name("body")
        redirects: list[Any] = []
        heredocs: list[Any] = []
        after: list[Any] = []
        for c in node.children:
            if c is body or c == body:
                continue
            if c.type == "heredoc_redirect":
                heredocs.append(c)
                for d in c.children:
                    if d.type in ("file_redirect", "herestring_redirect"):
                        redirects.append(d)
                    elif d.is_named and d.type in _STMT_TYPES | {"pipeline"}:
                        after.append(d)
            elif c.type in ("file_redirect", "herestring_redirect"):
                redirects.append(c)
        self.check_placeholder(redirects)
        if body is None:
            return
        if body.type == "command":
            self.s_command(body, ctx, redirects=redirects, heredocs=heredocs, after=after)
        else:
            self.exec_stmt(body, ctx)
            for a in after:
                self.exec_stmt(a, ctx)

    def check_placeholder(self, redirects: list[Any]) -> None:
        for _a, _b, text, sp in self.placeholder_pairs(redirects):
            self.problem("placeholder", f"'{text}' looks like a placeholder; bash reads it as redirections", sp)

    def placeholder_pairs(self, redirects: Sequence[Any]) -> list[tuple[Any, Any, str, Span]]:
        """``<model_path>`` and ``<model storage path>`` in a command: the ``<`` and ``>``
        redirections bash reads there, the text and its span (a documentation placeholder)."""
        out = []
        for a, b in zip(redirects, redirects[1:]):
            if a.type != "file_redirect" or b.type != "file_redirect":
                continue
            op_a = [c.type for c in a.children if not c.is_named]
            op_b = [c.type for c in b.children if not c.is_named]
            dest = a.child_by_field_name("destination")
            if op_a[:1] != ["<"] or op_b[:1] != [">"] or dest is None:
                continue
            text = self.data[a.start_byte : b.start_byte + 1].decode("utf-8", "surrogateescape")
            if dest.end_byte == b.start_byte or _MULTI_WORD_PLACEHOLDER.fullmatch(text):
                out.append((a, b, text, self.loc.span(a.start_byte, b.start_byte + 1)))
        return out

    def fill_placeholders(self, argv: list[Word], pairs: list[tuple[Any, Any, str, Span]]) -> list[Word]:
        """The command as its author meant it: each placeholder one unknown word where it
        is (its inner words dropped), as a ``{placeholder}`` is (`placeholders`), so that
        ``-tp <tp>`` is an option with a value nobody wrote, not one without a value."""
        out = list(argv)
        for a, b, text, sp in pairs:
            lo, hi = a.start_byte, b.start_byte + 1
            kept = [w for w in out if not lo <= w.span.start < hi]
            k = next((j for j, w in enumerate(kept) if w.span.start >= hi), len(kept))
            kept.insert(k, Word("", sp, text, (), (Hole(0, f"the placeholder {text}", sp, False),)))
            out = kept
        return out

    # -- commands
    def s_command(
        self,
        node: Any,
        ctx: _Ctx,
        redirects: Sequence[Any] = (),
        heredocs: Sequence[Any] = (),
        after: Sequence[Any] = (),
    ) -> None:
        if self.st.alts:
            names = self.path_names(node)
            if names and self.fork(
                names, ctx, self.span(node), lambda c: self.run_command(node, c, redirects, heredocs, after)
            ):
                return
        self.run_command(node, ctx, redirects, heredocs, after)

    def path_names(self, node: Any) -> list[str]:
        """The variables ``node`` reads whose value depends on the path taken."""
        alts = self.st.alts
        out: list[str] = []
        stack = [(node, False)]
        while stack:
            n, arith = stack.pop()
            parent = n.parent
            if n.type == "variable_name" and (
                arith
                or (parent is not None and parent.type in ("simple_expansion", "expansion"))
                # `${ARGS[@]}`
                or (parent is not None and parent.type == "subscript" and parent.parent.type == "expansion")
            ):
                name = self.text(n)
                for key in (name, "@" + name):  # the variable, the array
                    live = alts.get(key)
                    if live is not None and self.st.current(key) is live[0] and key not in out:
                        out.append(key)
            # a bare name inside `$(( ))` is read too (`--port $((BASE + i))`)
            inner = arith or n.type == "arithmetic_expansion"
            stack.extend((c, inner) for c in n.children)
        return out

    def fork(self, names: list[str], ctx: _Ctx, span: Span, run: Callable[[_Ctx], None]) -> bool:
        """Run a command that reads variables an ``if`` on an input set differently once
        per path, when it starts a launch (or runs a string) that depends on them.
        False when there are too many paths (the caller runs it once, values unknown)."""
        by_decision: dict[int, list[str]] = {}
        for name in names:
            by_decision.setdefault(self.st.alts[name][2], []).append(name)
        # the other variables and arrays one decision set take the same path's values
        for key, (merged, pairs, decision) in self.st.alts.items():
            group = by_decision.get(decision)
            if (
                group is not None
                and key not in group
                and self.st.current(key) is merged
                and len(pairs) == len(self.st.alts[group[0]][1])
            ):
                group.append(key)
        #: (name, its binding or None, label); (@name, its elements, label) for an array
        combos: list[list[tuple[str, Any, str]]] = [[]]
        for group in by_decision.values():
            n = len(self.st.alts[group[0]][1])
            combos = [c + [(name, *self.st.alts[name][1][k]) for name in group] for c in combos for k in range(n)]
            if len(combos) > MAX_PATHS:
                return False
        # a trial run: a command that starts nothing and runs no string needs no paths
        marks = (
            len(self.invocations),
            len(self.unknowns),
            len(self.timeline),
            len(self.written),
            len(self.stop_sites),
            len(self.problems),
        )
        base = self.st
        self.st = base.copy()
        run(ctx)
        if len(self.invocations) == marks[0] and not any(
            u.kind in ("eval", "command") for u in self.unknowns[marks[1] :]
        ):
            return True
        del self.invocations[marks[0] :], self.unknowns[marks[1] :], self.timeline[marks[2] :]
        del self.written[marks[3] :], self.stop_sites[marks[4] :], self.problems[marks[5] :]
        results: list[_State] = []
        labels: list[str] = []
        for combo in combos:
            self.st = base.copy()
            for name, b, _ in combo:
                if name[:1] == "@":  # an array's elements on this path
                    self.st.arrays[name[1:]] = b
                elif b is None:
                    self.st.vars.pop(name, None)
                else:
                    self.st.vars[name] = b
            seen: list[str] = []
            for _, _, label in combo:
                if label not in seen:
                    seen.append(label)
            label = " and ".join(seen)
            path = f"{ctx.path} and {label}" if ctx.path else label
            run(ctx._replace(conditional=True, path=path, nojump=True))
            results.append(self.st)
            labels.append(label)
        self.st = self.merge(results, span, labels)
        return True

    def run_command(
        self,
        node: Any,
        ctx: _Ctx,
        redirects: Sequence[Any] = (),
        heredocs: Sequence[Any] = (),
        after: Sequence[Any] = (),
    ) -> None:
        prefixes: list[tuple[str, Word, Span]] = []
        argnodes: list[Any] = []
        inner_redirects = list(redirects)
        for c in node.children:
            t = c.type
            if t == "variable_assignment" and not argnodes:
                nm = c.child_by_field_name("name")
                val = c.child_by_field_name("value")
                if nm is None:
                    continue
                w = self.expand_value(val) if val is not None else Word("", self.span(c))
                prefixes.append((self.text(nm), w, self.span(c)))
            elif t in ("file_redirect", "herestring_redirect"):
                inner_redirects.append(c)
            elif t == "command_name" or (t != "comment" and c.is_named):
                argnodes.append(c)
        file_loc = type(self.loc) is _FileLoc
        pairs = (
            self.placeholder_pairs(sorted(inner_redirects, key=lambda r: r.start_byte))
            if file_loc and len(inner_redirects) > 1
            else []
        )
        closing = {b.id for _, b, _, _ in pairs}
        # tree-sitter puts words that follow a redirect into the redirect:
        # ``cmd > log --port 1`` gives destination ``log`` and arguments ``--port 1``
        redir_texts: list[str] = []
        for r in inner_redirects:
            if r.type == "file_redirect":
                dests = [d for d in r.children if d.is_named and d.type != "file_descriptor"]
                if r.id in closing:
                    # the `>` of `<model> -tp 2`: the words after it on its line are the
                    # command's (at a line's end, bash stops at the newline)
                    line_end = _logical_line_end(self.data, r.start_byte)
                    argnodes.extend(d for d in dests if r.start_byte + 1 < d.start_byte < line_end)
                    continue
                # the destination is the nodes glued together (see `_bare_dollar`)
                k = 1
                while k < len(dests) and dests[k].start_byte == dests[k - 1].end_byte:
                    k += 1
                argnodes.extend(dests[k:])
                redir_texts.append(
                    self.data[r.start_byte : (dests[k - 1].end_byte if dests else r.end_byte)].decode(
                        "utf-8", "surrogateescape"
                    )
                )
            elif r.type == "herestring_redirect":
                redir_texts.append(self.text(r))
        if inner_redirects and len(argnodes) > 1:
            argnodes.sort(key=lambda n: n.start_byte)
        argv: list[Word] = []
        data = self.data
        prev_end = -1
        glue_next: Optional[Word] = None
        for a in argnodes:
            at, ab, ae = a.type, a.start_byte, a.end_byte
            if self.consumed and a.id in self.consumed:
                prev_end = ae
                continue
            if prev_end >= 0 and ab > prev_end and b"\\" in data[prev_end:ab]:
                glue_next = self.gap_escapes(argv, prev_end, ab)
            if at == "command_name":
                for c in a.children:
                    argv.extend(self.expand(c))
            elif (ab == prev_end or glue_next is not None) and argv:
                # tree-sitter splits 'a'\b into two arguments; bash reads one word
                argv[-1:] = self.expand_group([argv[-1]], a)
            else:
                lw = self.literal_at(at, ab, ae) if file_loc and at in _LITERAL_TYPES else None
                if lw is not None:
                    argv.append(lw)
                else:
                    argv.extend(self.expand(a))
            glue_next = None
            prev_end = ae
            if data[ab : ab + 1] == b"\\":
                raw = self.text(a)
                if not raw[1:].strip() and raw[1:] != "":
                    cr = raw[1:2] == "\r"
                    what = "a carriage return (a Windows line ending)" if cr else "a space"
                    self.problem(
                        "crlf-continuation" if cr else "split-command",
                        f"{what} after '\\' breaks the line continuation: the command ends here",
                        self.span(a),
                    )
        other = _TAIL_OTHER.search(data, prev_end) if prev_end >= 0 else None
        if other is not None and data.find(b"\n", prev_end, other.start()) < 0:
            # not only blanks and backslashes before the line ends (`cmd &`, `cmd; next`):
            # no need to find the line's end (100,000 commands on one line each scanned it)
            prev_end = -1
        if prev_end >= 0:
            nl = _logical_line_end(data, prev_end)
            tail = data[prev_end:nl]
            if b"\\" in tail and not tail.replace(b"\\\n", b"").strip(b" \t\\\x0b\x0c"):
                self.gap_escapes(argv, prev_end, nl)
                if _BLANK_AFTER_BACKSLASH.search(tail):
                    self.problem(
                        "split-command",
                        "a blank after '\\' breaks the line continuation: the command ends here",
                        self.loc.span(prev_end + tail.index(b"\\"), nl),
                    )
        if pairs:
            argv = self.fill_placeholders(argv, pairs)
        sp = self.span(node)
        for h in heredocs:
            self.record_heredoc(node, h, argv, inner_redirects, after)
        if not argv:
            for name, w, psp in prefixes:
                self.set_var(name, w, psp, ctx)
            return
        self.dispatch(argv, prefixes, ctx, sp, redir_texts, inner_redirects)
        for a in after:
            self.exec_stmt(a, ctx)

    def record_heredoc(
        self, node: Any, h: Any, argv: list[Word], redirects: Sequence[Any], after: Sequence[Any]
    ) -> None:
        content = self.heredoc_content(h)
        if content is None or not argv:
            return
        prog = argv[0].text
        targets: list[Word] = []
        if prog == "cat":
            for r in redirects:
                if r.type != "file_redirect":
                    continue
                ops = [c.type for c in r.children if not c.is_named]
                dests = [d for d in r.children if d.is_named and d.type != "file_descriptor"]
                if ops and ops[0] in (">", ">>", ">|") and dests:
                    targets.extend(self.expand(dests[0])[:1])
        if prog == "tee":
            targets.extend(w for w in argv[1:] if w.text is not None and not w.value.startswith("-"))
        for a in after:
            for cmd in self._commands_in(a):
                nm = cmd.child_by_field_name("name")
                if nm is not None and self.text(nm) == "tee":
                    for c in cmd.children:
                        if c.is_named and c.type != "command_name" and not self.text(c).startswith("-"):
                            targets.extend(self.expand(c)[:1])
        for t in targets:
            if self.hole_words and HOLE_MARK in content.value:  # a quoted heredoc in an eval'd string
                content = unmask_holes(content, self.hole_words)
            self.written.append(WrittenFile(t, content, self.span(h)))

    def _commands_in(self, n: Any) -> list[Any]:
        if n.type == "command":
            return [n]
        out = []
        for c in n.children:
            out.extend(self._commands_in(c))
        return out

    def heredoc_content(self, h: Any) -> Optional[Word]:
        start = None
        body = None
        strip_tabs = False
        for c in h.children:
            if c.type == "heredoc_start":
                start = c
            elif c.type == "heredoc_body":
                body = c
            elif not c.is_named and c.type == "<<-":
                strip_tabs = True
        if body is None:
            return None
        quoted = start is not None and any(ch in self.text(start) for ch in "'\"\\")
        acc = _Acc()
        a, b = body.start_byte, body.end_byte
        # tree-sitter starts a <<- body after the first line's tabs
        pos = a
        kids = [] if quoted else [c for c in body.children if c.type in _EXPANSION_TYPES]
        for c in kids:
            self.lit_heredoc(acc, pos, c.start_byte, strip_tabs)
            self.expand_into(acc, c, quoted=True)
            pos = c.end_byte
        self.lit_heredoc(acc, pos, b, strip_tabs, raw=quoted)
        acc.started = True
        words = acc.finish(self.span(body), self.text(body))
        return words[0] if words else Word("", self.span(body))

    def lit_heredoc(self, acc: _Acc, a: int, b: int, strip_tabs: bool, raw: bool = False) -> None:
        mode = "raw" if raw else "heredoc"
        if a >= b:
            return
        if not strip_tabs:
            self._lit_escapes(acc, a, b, mode)
            return
        data = self.data
        pos = a
        while pos < b:
            if pos > 0 and data[pos - 1 : pos] == b"\n":
                while pos < b and data[pos : pos + 1] == b"\t":
                    pos += 1
            nl = data.find(b"\n", pos, b)
            end = b if nl < 0 else nl + 1
            if end > pos:
                self._lit_escapes(acc, pos, end, mode)
            pos = end

    # ------------------------------------------------------------------ dispatch
    def dispatch(
        self,
        argv: list[Word],
        prefixes: list[tuple[str, Word, Span]],
        ctx: _Ctx,
        span: Span,
        redirects: list[str],
        redirect_nodes: Sequence[Any],
    ) -> None:
        name = argv[0].text
        if name is None:
            if any(w.text in ("serve", "vllm") or (w.text or "").startswith("vllm.") for w in argv[1:4]):
                self.unknown(
                    "command", f"a vLLM launch whose program vcfg cannot compute ({argv[0].describe_unknown()})", span
                )
            return
        if name in ("set",):
            self.b_set(argv, span, ctx)
            return
        if name in ("break", "continue", "return", "exit"):
            # in a branch vcfg cannot decide, the branch keeps the jump's paths
            # (`run_maybe`); in one path's run of a forked command it is not followed
            if not ctx.nojump and (name in ("return", "exit") or ctx.in_loop):
                k = argv[1].text if len(argv) > 1 else "1"
                raise _Jump(name, int(k) if k is not None and k.isdigit() and name in ("break", "continue") else 1)
            return
        if name in ("source", "."):
            target = argv[1].text if len(argv) > 1 and argv[1].text is not None else "a computed path"
            if len(argv) > 1 and argv[1].text is not None:
                if self.source_file(argv[1].text, argv[2:], ctx, span):
                    return  # read here: its launches are this script's
                self.starts.append(argv[1])  # the file joins this script's deployment
            self.unknown("source", f"'{name} {target}' may set any variable", span, env=True)
            self.event("unknown", None, None, False, span, ctx)
            return
        if name == "eval":
            self.b_eval(argv[1:], prefixes, ctx, span)
            return
        if name == "read":
            self.b_read(argv, prefixes, ctx, span, redirect_nodes)
            return
        if name == "shift":
            n = 1
            if len(argv) > 1 and argv[1].text is not None and argv[1].text.isdigit():
                n = int(argv[1].text)
            if self.st.positional is not None:
                self.st.positional = self.st.positional[n:]
            return
        if name in ("export", "declare", "typeset", "local", "readonly", "unset"):
            # only reached when computed (``command export``): best effort
            self.unknown("indirection", f"'{name}' with computed arguments", span)
            return
        if name in self.functions and len(self.call_stack) < MAX_CALLS and name not in self.call_stack:
            self.call_function(name, argv[1:], prefixes, ctx, span)
            return
        if _basename(name) in _STOPS:
            site = self.sites[0] if self.sites else 0
            if site >= 0:  # not in a function nothing calls
                self.seq += 1
                self.stop_seqs.append(self.seq)
                if self.sites:
                    self.stop_sites.append(site)
        self.classify(argv, prefixes, ctx, span, redirects)

    def source_file(self, target: str, args: list[Word], ctx: _Ctx, span: Span) -> bool:
        """``source FILE`` of a file of the script's own repository (the nearest folder
        above it with a ``.git``, else the script's folder): read (never run) in the
        current shell.  False when the file is not there or not readable."""
        full = _repo_file(self.path, target)
        if full is None or full in self.sourcing or len(self.sourcing) >= MAX_NESTED:
            return False
        try:
            from vcfg.fileio import read_regular

            data = read_regular(full, MAX_BYTES)  # a regular file only: a FIFO would block
        except OSError:
            return False
        if len(data) > MAX_BYTES:
            return False
        shown = os.path.relpath(full, os.path.dirname(os.path.abspath(self.path))) if self.path else full
        shown = os.path.join(os.path.dirname(self.path), shown) if os.path.dirname(self.path) else shown
        li = LineIndex(data, shown)
        saved = (self.data, self.loc, self.li, self.st.positional, len(self.problems))
        self.data, self.loc, self.li = data, _FileLoc(li), li
        if args:
            self.st.positional = list(args)
        self.sourcing.append(full)
        self.sites.append(self.sites[0] if self.sites else span.start)
        try:
            self.returnable(
                lambda: self.exec_pieces(top_level(data, li), ctx), f"`{target}` is read to its end", ctx, span
            )
        finally:
            self.sites.pop()
            self.sourcing.pop()
            self.data, self.loc, self.li = saved[0], saved[1], saved[2]
            if args:
                self.st.positional = saved[3]
            del self.problems[saved[4] :]  # the sourced file's own problems are its own lint's
        return True

    def b_set(self, argv: list[Word], span: Span, ctx: _Ctx) -> None:
        i = 1
        while i < len(argv):
            t = argv[i].text
            if t is None:
                i += 1
                continue
            if t == "--":
                self.st.positional = _positional(argv[i + 1 :])
                return
            if t in ("-o", "+o") and i + 1 < len(argv):
                if argv[i + 1].text == "allexport":
                    self.st.allexport = t == "-o"
                    self.event("allexport", None, None, self.st.allexport, span, ctx)
                i += 2
                continue
            if len(t) > 1 and t[0] in "-+" and t[1:].isalpha():
                if "a" in t[1:]:
                    self.st.allexport = t[0] == "-"
                    self.event("allexport", None, None, self.st.allexport, span, ctx)
                if "o" in t[1:] and i + 1 < len(argv):
                    if argv[i + 1].text == "allexport":
                        self.st.allexport = t[0] == "-"
                        self.event("allexport", None, None, self.st.allexport, span, ctx)
                    i += 1
                i += 1
                continue
            # ``set a b c`` sets the positional parameters
            self.st.positional = _positional(argv[i:])
            return

    def b_eval(self, args: list[Word], prefixes: list[tuple[str, Word, Span]], ctx: _Ctx, span: Span) -> None:
        if not args:
            return
        word = _spaced(args, span)
        if not word.known and not (word.value.strip() and self.run_nested(word, ctx, span, "eval")):
            self.unknown("eval", f"eval of a string vcfg cannot compute ({word.describe_unknown()})", span, env=True)
            self.event("unknown", None, None, False, span, ctx)
            return
        if not word.known:
            # read with its unknown parts unknown; what they hold may still set anything
            self.unknown(
                "eval", f"eval of a string with parts vcfg cannot compute ({word.describe_unknown()})", span, env=True
            )
            self.event("unknown", None, None, False, span, ctx)
            return
        self.run_nested(word, ctx, span, "eval")

    def run_nested(self, word: Word, ctx: _Ctx, span: Span, what: str, positional: Optional[list[Word]] = None) -> bool:
        """Run a string bash re-parses.  A string with unknown parts is read with each
        part an unknown value where it lands; False (nothing run) when it then does not
        parse."""
        if self.nested >= MAX_NESTED:
            self.unknown(what, f"{what} nested too deep", span, env=True)
            return True
        if word.holes:
            word = mask_holes(word, self.hole_words)
        data = word.value.encode("utf-8", "surrogateescape")
        try:
            tree = _ts_parse(data)
        except Exception as e:  # pragma: no cover - tree-sitter failure
            self.unknown(what, f"{what} string could not be parsed: {e}", span, env=True)
            return True
        if tree.root_node.has_error and HOLE_MARK in word.value:
            return False  # the unknown parts may be what makes it parse
        saved = (self.data, self.loc)
        self.data, self.loc = data, _WordLoc(word, data)
        self.nested += 1
        self.sites.append(self.sites[0] if self.sites else span.start)
        saved_pos = self.st.positional
        if positional is not None:
            self.st.positional = positional
        try:
            if tree.root_node.has_error:
                self.problem("syntax", f"the {what} string has a syntax error", span)
            self.exec_seq(tree.root_node.children, ctx)
        except _Jump:
            if what == "eval":
                raise  # eval runs in this shell: its exit is the script's
        finally:
            self.data, self.loc = saved
            self.nested -= 1
            self.sites.pop()
            if positional is not None:
                self.st.positional = saved_pos
        return True

    def b_read(
        self,
        argv: list[Word],
        prefixes: list[tuple[str, Word, Span]],
        ctx: _Ctx,
        span: Span,
        redirect_nodes: Sequence[Any],
    ) -> None:
        names: list[str] = []
        array: Optional[str] = None
        delim = "\n"
        i = 1
        while i < len(argv):
            t = argv[i].text
            if t is None:
                i += 1
                continue
            if t.startswith("-") and len(t) > 1:
                opts = t[1:]
                for k, ch in enumerate(opts):
                    if ch in "adpntuNi":
                        val = opts[k + 1 :] or (argv[i + 1].text if i + 1 < len(argv) else None)
                        if not opts[k + 1 :]:
                            i += 1
                        if ch == "a":
                            array = val
                        elif ch == "d":
                            delim = val or ""
                        break
                i += 1
                continue
            names.append(t)
            i += 1
        source: Optional[Word] = None
        for r in redirect_nodes:
            if r.type == "herestring_redirect":
                kids = [c for c in r.children if c.is_named]
                if kids:
                    source = self.expand_value(kids[-1])
        ifs = " \t\n"
        for n, w, _ in prefixes:
            if n == "IFS":
                ifs = w.text if w.text is not None else None  # type: ignore[assignment]
        reason = "read from input"
        if source is None or not source.known or ifs is None:
            if source is not None and not source.known:
                reason = f"read from {source.describe_unknown()}"
            for n in names + ([array] if array else []):
                if n == array:
                    self.st.arrays[n] = None
                else:
                    self.set_var(n, _hole_word(reason, span), span, ctx, kind="read")
            return
        text = source.value
        if delim and delim in text:
            text = text[: text.index(delim)]
        pieces = _split_fields(source.slice(0, len(text)), ifs)
        if array:
            self.st.arrays[array] = tuple(pieces)
            self.st.vars.pop(array, None)
            self.event("read", array, pieces[0] if pieces else None, False, span, ctx)
        for k, n in enumerate(names):
            if k < len(pieces):
                if k == len(names) - 1 and len(pieces) > len(names):
                    w = source.slice(text.index(pieces[k].value) if pieces[k].value in text else 0, len(text))
                else:
                    w = pieces[k]
            else:
                w = Word("", span)
            self.set_var(n, w, span, ctx, kind="read")

    def call_function(
        self, name: str, args: list[Word], prefixes: list[tuple[str, Word, Span]], ctx: _Ctx, span: Span
    ) -> None:
        self.called.add(name)
        body, data, loc, _, li = self.functions[name]
        saved_pos = self.st.positional
        saved_src = (self.data, self.loc, self.li)
        self.st.positional = list(args) if all(w.known or not w.may_split for w in args) else None
        self.data, self.loc, self.li = data, loc, li
        fctx = ctx._replace(function=name)
        try:
            self.sites.append(self.sites[0] if self.sites else span.start)
            try:
                self.call_body(name, body, fctx)
            finally:
                self.sites.pop()
        finally:
            self.st.positional = saved_pos
            self.data, self.loc, self.li = saved_src

    def call_body(self, name: str, body: Any, ctx: _Ctx) -> None:
        self.call_stack.append(name)
        self.locals_stack.append({})
        try:
            self.returnable(lambda: self.exec_stmt(body, ctx), f"`{name}` runs to its end", ctx, self.span(body))
        finally:
            self.call_stack.pop()
            saved = self.locals_stack.pop()
            for n, b in saved.items():
                if b is None:
                    self.st.vars.pop(n, None)
                else:
                    self.st.vars[n] = b

    def returnable(self, run: Callable[[], None], label: str, ctx: _Ctx, sp: Span) -> None:
        """Run a function body or a sourced file, which ``return`` leaves: the paths
        that returned in a branch vcfg cannot decide meet the others after it."""
        fr = _Frame("function")
        self.frames.append(fr)
        live = True
        try:
            try:
                run()
            except _Jump as j:
                if j.kind == "cut":
                    live = False
                elif j.kind != "return":
                    if not fr.jumps:
                        raise
                    # the paths that returned earlier go on after the call; this
                    # jump ends (exit) or leaves (break) the ones that reach it only
                    self.frames.remove(fr)
                    try:
                        how = self.leave(j, "the jump runs", ctx)
                    finally:
                        self.frames.append(fr)
                    if how == "live":
                        raise
                    live = False
        finally:
            self.frames.remove(fr)
        paths = [(st, lb) for k, st, lb in fr.jumps if k == "return"]
        if not paths:
            if not live:
                raise _Jump("cut")
            return
        if live:
            paths.append((self.st, label))
        self.st = paths[0][0] if len(paths) == 1 else self.merge([p[0] for p in paths], sp, [p[1] for p in paths])

    # ------------------------------------------------------------------ launches
    def classify(
        self, argv: list[Word], prefixes: list[tuple[str, Word, Span]], ctx: _Ctx, span: Span, redirects: list[str]
    ) -> None:
        wrappers: list[str] = []
        env_prefix: list[tuple[str, Word, Span]] = list(prefixes)
        unsets: list[str] = []
        inherits = not ctx.container
        i = 0
        n = len(argv)
        while i < n:
            w = argv[i]
            t = w.text
            if t is None:
                return
            b = _basename(t)
            if b == "env":
                wrappers.append("env")
                i += 1
                while i < n:
                    a = argv[i].text
                    if a is None:
                        return
                    if a in ("-i", "--ignore-environment", "-"):
                        inherits = False
                    elif a in ("-u", "--unset") and i + 1 < n:
                        u = argv[i + 1].text
                        if u:
                            unsets.append(u)
                        i += 1
                    elif a.startswith("--unset="):
                        unsets.append(a.split("=", 1)[1])
                    elif a in ("-C", "--chdir", "-S", "--split-string") and i + 1 < n:
                        i += 1
                    elif a == "--":
                        pass
                    elif a.startswith("-"):
                        pass
                    elif "=" in a and _NAME_RE.match(a.split("=", 1)[0]):
                        k = a.index("=")
                        env_prefix.append((a[:k], argv[i].slice(k + 1, len(a)), argv[i].span))
                    else:
                        break
                    i += 1
                continue
            wrapper = WRAPPERS.get(b)
            if wrapper is not None:
                wrappers.append(b)
                i += 1
                valued = wrapper.valued
                while i < n:
                    a = argv[i].text
                    if a is None:
                        if _option_with_value(argv[i]):
                            i += 1  # srun --nodelist="$HEAD"
                            continue
                        if wrapper.operands and i + wrapper.operands < n:
                            break  # an operand vcfg cannot compute (taskset -c "$first-$last")
                        return
                    if a == "--":
                        i += 1
                        break
                    if a.startswith("-") and len(a) > 1:
                        if a in valued or (a[:2] in valued and len(a) == 2):
                            i += 2
                        else:
                            i += 1
                        continue
                    break
                i += wrapper.operands  # timeout's duration, taskset's CPU mask
                continue
            runner = RUNNERS.get(b)
            if runner is not None and i + 1 < n and argv[i + 1].text == runner.sub:
                wrappers.append(f"{b} {runner.sub}")
                i += 2
                while i < n:
                    a = argv[i].text
                    if a is None:
                        if _option_with_value(argv[i]):
                            i += 1  # singularity exec --bind="$DATA:/data"
                            continue
                        if runner.operands and i + runner.operands < n:
                            break  # an image vcfg cannot compute (singularity exec $IMAGE ...)
                        return
                    if a in runner.valued:
                        i += 2
                        continue
                    if a.startswith("-"):
                        i += 1
                        continue
                    break
                i += runner.operands
                continue
            if b == "ssh" and i + 1 < n:
                self.ssh(argv[i:], ctx, span)
                return
            if b == "tmux" and i + 1 < n:
                self.tmux(argv[i:], ctx, span)
                return
            if b == "ray" and [w.text for w in argv[i + 1 : i + 3]] == ["job", "submit"]:
                self.ray_job_submit(argv[i + 3 :], ctx, span, redirects)
                return
            if b in SHELLS and i + 1 < n:
                j = i + 1
                cmd = None
                while j < n:
                    a = argv[j].text
                    if a is None:
                        break
                    if a.startswith("-") and "c" in a[1:] and not a.startswith("--"):
                        cmd = j + 1
                        if cmd < n and argv[cmd].text == "--":  # bash -c -- 'string'
                            cmd += 1
                        break
                    if not a.startswith("-"):
                        break
                    j += 1
                if cmd is not None and cmd < n:
                    w2 = argv[cmd]
                    pos = list(argv[cmd + 2 :]) if cmd + 1 < n else []
                    if not (w2.known or w2.value.strip()):
                        ran = False
                    elif ctx.container:
                        ran = self.container_shell(w2, env_prefix, ctx, span, pos)
                    else:
                        ran = self.run_nested(w2, ctx._replace(container=not inherits), span, "bash -c", pos)
                    if not ran:
                        self.unknown("eval", f"'{b} -c' of a string vcfg cannot compute", span)
                elif cmd is None and j < n and argv[j].text is not None:
                    self.starts.append(argv[j])  # `bash serve.sh`: a file this script starts
                return
            if b in CONTAINERS:
                self.docker(argv[i:], env_prefix, ctx, span, redirects, wrappers, argv)
                return
            break
        if i >= n:
            return
        prog = argv[i].text or ""
        base = _basename(prog)
        rest = argv[i + 1 :]
        kind: Optional[str] = None
        entry = ""
        args: list[Word] = []
        sub: tuple[str, ...] = ()
        if base in VLLM_PROGRAMS:
            kind, entry, args, sub = self.vllm_cli(rest, base)
        elif _PY_RE.match(base):
            j = 0
            while j < len(rest):
                a = rest[j].text
                if a is None:
                    # `python $DIR/toy_proxy_server.py`: the folder is unknown, the script is not
                    a = _known_basename(rest[j])
                    if a is None or not a.endswith(".py"):
                        return
                    break
                if a in ("-X", "-W", "-Q"):
                    j += 2
                    continue
                if a.startswith("-") and a != "-m" and not a.startswith("-m"):
                    j += 1
                    continue
                break
            if j >= len(rest):
                return
            a = rest[j].text or _known_basename(rest[j]) or ""
            if a == "-m" or a.startswith("-m"):
                mod = a[2:] if len(a) > 2 else (rest[j + 1].text if j + 1 < len(rest) else None)
                k = j + (1 if len(a) > 2 else 2)
                if mod is None:
                    return
                margs = rest[k:]
                mkind = module_kind(mod)
                if mkind is None:
                    return
                if mkind == "vllm-cli":
                    kind, entry, args, sub = self.vllm_cli(margs, f"python -m {mod}")
                else:
                    kind, entry, args = mkind, f"python -m {mod}", list(margs)
            else:
                script = _basename(a)
                skind = script_kind(script)
                if skind is None:
                    return
                kind, entry, args = skind, f"python {script}", list(rest[j + 1 :])
        elif program_kind(base) is not None:
            kind, entry, args = program_kind(base), base, list(rest)
        if kind is None:
            if base.endswith((".sh", ".bash")):
                self.starts.append(argv[i])  # `./serve.sh`: a file this script starts
            return
        self.add_invocation(kind, entry, argv, args, sub, env_prefix, unsets, inherits, ctx, span, redirects, wrappers)

    def ssh(self, argv: list[Word], ctx: _Ctx, span: Span) -> None:
        """``ssh [options] HOST COMMAND...``: the words after the host, joined with
        spaces, are a string the remote shell runs (on another machine: the script's
        environment does not reach it)."""
        n = len(argv)
        i = _past_options(argv, 1, lambda t: len(t) == 2 and t[-1] in _SSH_VALUED)
        if i is None:
            return
        host = argv[i] if i < n else None
        rest = argv[i + 1 :]
        if host is None or not rest:
            return
        remote = _spaced(rest, span)
        if not remote.known:
            if any((w.text or w.value).find("vllm") >= 0 for w in rest):
                self.unknown(
                    "command", f"a command run over ssh that vcfg cannot compute ({remote.describe_unknown()})", span
                )
            return
        before = len(self.invocations)
        self.run_nested(remote, ctx._replace(container=True), span, "ssh")
        self._run_elsewhere(before, "ssh")

    def tmux(self, argv: list[Word], ctx: _Ctx, span: Span) -> None:
        """``tmux new-session -d -s NAME "CMD"`` (also ``new-window``, ``split-window``,
        ``respawn-pane``) runs CMD in a shell; ``tmux send-keys -t PANE "CMD" C-m`` types
        CMD into a pane's shell and runs it when Enter follows.  On this machine, in the
        environment of the tmux server (not known to be the script's)."""
        i = _past_options(argv, 1, lambda t: t in ("-L", "-S", "-f", "-c", "-T"))
        if i is None or i >= len(argv) or argv[i].text is None:
            return
        sub = argv[i].text
        pane = ""  # the target keys are typed into, as written
        if sub in TMUX_RUNS:
            j = _past_options(argv, i + 1, lambda t: t in TMUX_VALUED, unknown_operand=True)
            words = argv[j:] if j is not None else []
            if not words:
                return
            script = _spaced(words, span)
        elif sub in ("send-keys", "send"):
            j = _past_options(argv, i + 1, lambda t: t in ("-t", "-N", "-c"), unknown_operand=True)
            words = argv[j:] if j is not None else []
            if not words or words[-1].text not in TMUX_ENTER:
                return  # typed, not run
            end = j if j is not None else i + 1
            pane = next(
                (argv[k + 1].raw or argv[k + 1].value for k in range(i + 1, end - 1) if argv[k].text == "-t"), ""
            )
            acc = _Acc()
            for w in words:
                if w.text in TMUX_ENTER:
                    acc.text("\n", [Run(acc.n, 1, w.span, False)])
                else:
                    acc.word(w, False)
            script = acc.finish(span, "")[0]
        else:
            return
        before = len(self.invocations)
        # a shell of its own, whose environment is the tmux server's (not known); a pane
        # keeps what earlier keys typed into it set and exported (`send-keys "export
        # CUDA_VISIBLE_DEVICES=1" C-m`, then the launch)
        saved = (self.st, self.environ)
        self.st = _State() if sub in TMUX_RUNS else self.panes.get(pane, _State())
        self.environ = None
        try:
            self.run_nested(script, ctx._replace(container=False), span, "tmux")
        finally:
            if sub not in TMUX_RUNS:
                self.panes[pane] = self.st
            self.st, self.environ = saved
        self._run_elsewhere(before, "tmux")

    def ray_job_submit(self, argv: list[Word], ctx: _Ctx, span: Span, redirects: list[str]) -> None:
        """``ray job submit [options] [--] COMMAND...``: the command runs on the Ray
        cluster's head node in the job's environment (not the script's, nor the
        ``RAY_ADDRESS=...`` given to the client)."""
        i = _past_options(argv, 0, lambda t: t in RAY_JOB_SUBMIT_VALUED)
        if i is None or i >= len(argv):
            return
        before = len(self.invocations)
        self.classify(list(argv[i:]), [], ctx._replace(container=True), span, redirects)
        self._run_elsewhere(before, "ray job submit")

    def _run_elsewhere(self, before: int, wrapper: str) -> None:
        """The launches recorded since ``before`` run on another machine through
        ``wrapper``: they do not inherit the script's environment."""
        for k in range(before, len(self.invocations)):
            inv = self.invocations[k]
            self.invocations[k] = inv._replace(wrappers=(wrapper,) + inv.wrappers, inherits_env=False)

    def vllm_cli(self, rest: Sequence[Word], prog: str) -> tuple[Optional[str], str, list[Word], tuple[str, ...]]:
        if not rest:
            return VLLM_OTHER, prog, [], ()
        for words, kind in VLLM_LAUNCHES.items():
            if tuple(w.text for w in rest[: len(words)]) == words:
                return kind, f"{prog} {' '.join(words)}", list(rest[len(words) :]), words
        sub = tuple(w.text or "?" for w in rest[:2] if w.text is None or not w.value.startswith("-"))
        return VLLM_OTHER, f"{prog} {' '.join(sub[:1])}".strip(), list(rest[1:]), sub[:1]

    def docker(
        self,
        argv: list[Word],
        env_prefix: list[tuple[str, Word, Span]],
        ctx: _Ctx,
        span: Span,
        redirects: list[str],
        wrappers: list[str],
        full: list[Word],
    ) -> None:
        if len(argv) < 2 or argv[1].text not in ("run", "exec", "create"):
            return
        sub = argv[1].text
        boolean = {
            "-d",
            "-i",
            "-t",
            "-it",
            "-ti",
            "-itd",
            "-dit",
            "--rm",
            "--privileged",
            "--init",
            "--detach",
            "--interactive",
            "--tty",
            "-P",
            "--publish-all",
            "--read-only",
            "--no-healthcheck",
            "--sig-proxy",
            "-q",
            "--quiet",
        }
        env: list[tuple[str, Word, Span]] = []
        entrypoint = None
        i = 2
        n = len(argv)
        skipped = False
        while i < n:
            t = argv[i].text
            if t is None:
                # `$docker_args`: options vcfg cannot see (nothing when unset), or one
                # `--name=$X`; the image must then look like one (`repo:tag`, `org/repo`)
                v = argv[i].value
                if v == "" and argv[i].may_split or v.startswith("-") and "=" in v:
                    skipped = True
                    i += 1
                    continue
                if v and not v.startswith("-") and argv[i].holes[0].at != 0:
                    break  # the image, its tag unknown (nvcr.io/nvidia/vllm:${VERSION})
                return
            if not t.startswith("-"):
                break
            opt, eq, val = t.partition("=")
            if opt in ("-e", "--env"):
                vw = argv[i].slice(len(opt) + 1, len(t)) if eq else (argv[i + 1] if i + 1 < n else None)
                k, e2, v = vw.value.partition("=") if vw is not None else ("", "", "")
                if (
                    vw is not None
                    and vw.text is None
                    and e2
                    and _NAME_RE.match(k)
                    and all(h.at > len(k) for h in vw.holes)
                ):
                    env.append((k, _cut(vw, len(k) + 1, len(vw.value), True), vw.span))  # `-e A=$unknown`
                elif vw is not None and vw.text is not None:
                    if e2:
                        env.append((k, vw.slice(len(k) + 1, len(vw.value)), vw.span))
                    else:
                        b = self.lookup(k)
                        if b is not None and b.value is not None:
                            env.append((k, b.value, vw.span))
                i += 1 if eq else 2
                continue
            if opt == "--entrypoint":
                ep = argv[i].slice(len(opt) + 1, len(t)) if eq else (argv[i + 1] if i + 1 < n else None)
                entrypoint = ep if ep is not None and ep.value else None
            if t in boolean or (len(t) > 1 and t[1] != "-" and all(ch in "dit" for ch in t[1:])) or eq:
                i += 1
            else:
                i += 2
        if i >= n or skipped and not re.search(r"[:/]", argv[i].value):
            return
        before = len(self.invocations)
        if sub == "exec":
            # `docker exec -it $CONTAINER bash -c ...`: an unknown word before a program
            # was the container, not options
            first = _basename(argv[i].text or "")
            program = first in SHELLS or first in VLLM_PROGRAMS or _PY_RE.match(first) is not None
            rest = argv[i:] if skipped and program else argv[i + 1 :]
            sub_ctx = ctx._replace(container=True)
            self.classify(list(rest), env, sub_ctx, span, redirects)
            self._in_container(before, f"{_basename(argv[0].text or 'docker')} {sub}")
            return
        image = argv[i].text or argv[i].value  # a tag vcfg cannot compute: the name still tells
        rest_words = argv[i + 1 :]
        official = "openai" in image or "vllm/vllm" in image
        # another vLLM image (opea/vllm-gaudi, a vllm-cpu build) given only vLLM's
        # options: its entrypoint is vLLM's server
        options_only = not rest_words or (rest_words[0].text or "").startswith("-")
        if (
            entrypoint is not None
            # the image's own name, not its registry or organisation
            # (ghcr.io/vllm-project/guidellm is not a build of vLLM)
            or not re.search(r"vllm", image.split("@")[0].rsplit("/", 1)[-1].split(":")[0], re.I)
            or not (official or options_only)
        ):
            # `--entrypoint vllm IMAGE serve m`: the entrypoint runs with the words after the image
            rest = ([entrypoint] if entrypoint is not None else []) + argv[i + 1 :]
            if rest:
                self.classify(list(rest), env, ctx._replace(container=True), span, redirects)
                self._in_container(before, f"{_basename(argv[0].text or 'docker')} {sub}", argv[i])
            return
        args = list(argv[i + 1 :])
        # vllm/vllm-openai runs `vllm serve`; other builds of vLLM (and vllm-openai up to
        # 0.8.5) run the API server module, which takes --model (release.runs_api_server)
        from vcfg.launch.release import runs_api_server

        vllm_sub = () if not official or ("vllm-openai" in image and runs_api_server(image)) else ("serve",)
        self.add_invocation(
            SERVE,
            f"docker run {image.split(':')[0]}",
            full,
            args,
            vllm_sub,
            env,
            [],
            False,
            ctx,
            span,
            redirects,
            wrappers + ["docker run"],
        )
        self._in_container(before, "docker run", argv[i])

    def container_shell(
        self, word: Word, env: list[tuple[str, Word, Span]], ctx: _Ctx, span: Span, pos: list[Word]
    ) -> bool:
        """A shell string a container runs (``docker run IMAGE bash -c ...``): a shell of
        its own, whose environment is the container's (``-e``), not the script's; what
        it exports reaches its launches (the image's own ENV is not known)."""
        saved = (self.st, self.environ)
        st = _State()
        for name, w, sp in env:
            st.vars[name] = Binding(name, w, True, sp, False, "prefix")
        self.st, self.environ = st, None
        before = len(self.invocations)
        try:
            return self.run_nested(word, ctx._replace(container=False), span, "bash -c", pos)
        finally:
            self.st, self.environ = saved
            for k in range(before, len(self.invocations)):
                self.invocations[k] = self.invocations[k]._replace(inherits_env=False)

    def _in_container(self, before: int, wrapper: str, image: Optional[Word] = None) -> None:
        """The launches from ``before`` on run in a container (its own host), of
        ``image`` (whose tag may name the release)."""
        for k in range(before, len(self.invocations)):
            inv = self.invocations[k]
            if wrapper not in inv.wrappers:
                inv = inv._replace(wrappers=(wrapper,) + inv.wrappers)
            if image is not None and inv.image is None:
                inv = inv._replace(image=image)
            self.invocations[k] = inv

    def add_invocation(
        self,
        kind: str,
        entry: str,
        argv: list[Word],
        args: list[Word],
        sub: tuple[str, ...],
        prefixes: list[tuple[str, Word, Span]],
        unsets: list[str],
        inherits: bool,
        ctx: _Ctx,
        span: Span,
        redirects: list[str],
        wrappers: list[str],
    ) -> None:
        if len(self.invocations) >= MAX_LAUNCHES:
            self.limit_note(
                "launches",
                f"more than {MAX_LAUNCHES:,} launches in this script: this one and the ones after it are not checked",
                span,
            )
            # the rest of the script is not read: 20 MiB of launches ran every command (108 s)
            raise _LaunchCap()
        if inherits and not ctx.container:
            env = dict(self.st.vars)
            env_unknowns = self.st.env_unknowns
            if self.environ:
                # a known caller's environment reaches the launch too
                sp0 = self.li.span(0, 0)
                for k, v in self.environ.items():
                    if k not in env:
                        env[k] = Binding(k, _synth(v, sp0), True, sp0, False, "caller")
        else:
            env = {}
            env_unknowns = ()
            inherits = False
        pre_events = []
        for name, w, psp in prefixes:
            env[name] = Binding(name, w, True, psp, False, "prefix")
            pre_events.append(EnvEvent("prefix", name, w, True, psp, ctx.conditional or ctx.in_loop, ctx.function))
        for u in unsets:
            env[u] = Binding(u, None, False, span, True, "prefix")
        args = self.placeholders(args)
        if self.hole_words:  # a string's unknown part inside single quotes is still unknown
            hw = self.hole_words
            argv = [unmask_holes(w, hw) for w in argv]
            args = [unmask_holes(w, hw) for w in args]
            for k, b in env.items():
                if b.value is not None and HOLE_MARK in b.value.value:
                    env[k] = b._replace(value=unmask_holes(b.value, hw))
        if span.file != self.main_li.file and self.sites and self.sites[0] >= 0:
            # written in a sourced file, run from here: the launch is where it runs
            site = self.sites[0]
            end = self.main_li.data.find(b"\n", site)
            span = self.main_li.span(site, len(self.main_li.data) if end < 0 else end)
        complete = not any(w.holes and w.may_split for w in args)
        host, port, ups = _endpoints(kind, args)
        self.seq += 1
        self.invocations.append(
            Invocation(
                kind=kind,
                entrypoint=entry,
                command=tuple(argv),
                args=tuple(args),
                args_complete=complete,
                span=span,
                env=env,
                prefixes=tuple(pre_events),
                env_unknowns=tuple(env_unknowns),
                inherits_env=inherits,
                background=ctx.background,
                wrappers=tuple(wrappers),
                redirects=tuple(redirects),
                function=ctx.function,
                in_loop=ctx.in_loop,
                conditional=ctx.conditional,
                iteration=ctx.iteration,
                host=host,
                port=port,
                upstreams=ups,
                subcommand=sub,
                site=(self.sites[0] if self.sites else span.start),
                path=ctx.path,
                seq=self.seq,
            )
        )

    def placeholders(self, args: list[Word]) -> list[Word]:
        """``{your model directory}``, ``{MODEL_PATH}``: a documentation placeholder
        (bash passes the words as written) becomes one unknown word, with a problem."""
        out: list[Word] = []
        i = 0
        n = len(args)
        while i < n:
            w = args[i]
            if w.known and w.value.startswith("{") and w.raw.lstrip("\"'").startswith("{"):
                j = i
                while j < n and j < i + 8 and args[j].known and not args[j].value.endswith("}"):
                    j += 1
                if j < n and args[j].known and args[j].value.endswith("}"):
                    text = " ".join(a.value for a in args[i : j + 1])
                    if _PLACEHOLDER_RE.match(text):
                        sp = join_spans(w.span, args[j].span)
                        self.problem("placeholder", f"'{text}' looks like a placeholder: put the value there", sp)
                        out.append(Word("", sp, text, (), (Hole(0, f"the placeholder {text}", sp, False),)))
                        i = j + 1
                        continue
            out.append(w)
            i += 1
        return out

    # ------------------------------------------------------------------ expansion
    def literal(self, node: Any, t: str) -> Optional[Word]:
        """Fast path for the common literal words (no escapes, no tilde, no
        expansion), or None."""
        if type(self.loc) is not _FileLoc:
            return None
        return self.literal_at(t, node.start_byte, node.end_byte)

    def literal_at(self, t: str, a: int, b: int) -> Optional[Word]:
        raw = self.data[a:b]
        if b"\\" in raw or b"\n" in raw or raw[:1] == b"~":
            return None
        li = self.li
        sp = li.span(a, b)
        if t != "raw_string":
            text = raw.decode("utf-8", "surrogateescape")
            return _new(Word, (text, sp, text, (_new(Run, (0, len(text), sp, True)),) if text else (), (), False, ()))
        if len(raw) >= 2 and raw[-1:] == b"'":
            text = raw[1:-1].decode("utf-8", "surrogateescape")
            runs = (_new(Run, (0, len(text), li.span(a + 1, b - 1), True)),) if text else ()
            return _new(Word, (text, sp, raw.decode("utf-8", "surrogateescape"), runs, (), True, ()))
        return None

    def expand(self, node: Any) -> list[Word]:
        """The words one argument node becomes (0, 1 or more)."""
        t = node.type
        if t == "word" or t == "number" or t == "raw_string":
            w = self.literal(node, t)
            if w is not None:
                return [w]
        if t == "concatenation" and all(c.type == "word" for c in node.children):
            braces = self.brace_words(node)
            if braces is not None:
                return braces
        acc = _Acc()
        self.expand_into(acc, node, quoted=False)
        return acc.finish(self.span(node), self.text(node))

    def brace_words(self, node: Any) -> Optional[list[Word]]:
        """bash's brace expansion of an unquoted literal word (``{a,b}``,
        ``pre{a,b}post``, ``{a..c}``), or None when the word has none."""
        a, b = node.start_byte, node.end_byte
        raw = self.data[a:b]
        if b"{" not in raw or b"\\" in raw or (b"," not in raw and b".." not in raw):
            return None
        alts = _brace_expand(raw, a)
        if alts is None:
            return None
        acc = _Acc()
        for pieces in alts:
            acc.brk()
            if all((not p) if isinstance(p, str) else p[0] >= p[1] for p in pieces):
                continue  # an empty word from brace expansion is removed
            for piece in pieces:
                if isinstance(piece, str):
                    acc.text(piece, [Run(acc.n, len(piece), self.loc.span(a, b), False)])
                else:
                    self._lit_plain(acc, piece[0], piece[1])
        return acc.finish(self.span(node), self.text(node))

    def gap_escapes(self, argv: list[Word], a: int, b: int) -> Optional[Word]:
        """bash reads ``\\<tab>`` (or another escaped blank) as a literal
        character; tree-sitter skips it as blank space.  Put the characters
        back: glued to the word before or after, or as words of their own.
        Returns the word to glue to the next argument, if any."""
        data = self.data
        pos = a
        pending: Optional[Word] = None
        glued = False
        last_blank_end = -1
        while True:
            k = data.find(b"\\", pos, b)
            if k < 0 or k + 1 >= b:
                break
            ch = data[k + 1 : k + 2]
            if ch not in (b" ", b"\t", b"\x0b", b"\x0c"):
                pos = k + 2
                continue
            c = ch.decode()
            sp = self.loc.span(k, k + 2)
            w = Word(c, sp, "\\" + c, (Run(0, 1, self.loc.span(k + 1, k + 2), True),))
            if (k == a or (k == pos and glued)) and argv and pending is None:
                # glued to the word before (and so is every escape right after it)
                acc = _Acc()
                acc.word(argv[-1], False)
                acc.word(w, False)
                argv[-1] = acc.finish(self.loc.span(argv[-1].span.start, k + 2), "")[0]
                glued = True
            elif pending is not None and k == pos:
                acc = _Acc()
                acc.word(pending, False)
                acc.word(w, False)
                pending = acc.finish(self.loc.span(pending.span.start, k + 2), "")[0]
            else:
                if pending is not None:
                    argv.append(pending)
                pending = w
            pos = k + 2
            last_blank_end = pos
        if pending is not None:
            argv.append(pending)
        if last_blank_end == b and argv:
            return argv[-1]
        return None

    def expand_group(self, before: list[Word], node: Any) -> list[Word]:
        """``before`` (the words of the node just before) glued to ``node``."""
        acc = _Acc()
        for w in before:
            acc.word(w, False)
        acc.quoted = any(w.quoted for w in before)
        self.expand_into(acc, node, quoted=False)
        first = before[0].span if before else self.span(node)
        sp = self.loc.span(first.start, node.end_byte) if first.file == self.path else self.span(node)
        return acc.finish(sp, self.data[first.start : node.end_byte].decode("utf-8", "surrogateescape"))

    def expand_value(self, node: Any) -> Word:
        """An assignment's value: expanded, never split."""
        t = node.type
        if t == "word" or t == "number" or t == "raw_string":
            w = self.literal(node, t)
            if w is not None:
                return w
        acc = _Acc()
        self.expand_into(acc, node, quoted=True, assignment=True)
        acc.started = True
        words = acc.finish(self.span(node), self.text(node))
        if len(words) == 1:
            return words[0]
        # several fields from "${a[@]}" in an assignment: bash joins them
        j = _Acc()
        for k, w in enumerate(words):
            if k:
                j.text(" ", [Run(j.n, 1, w.span, False)])
            j.word(w, False)
        return j.finish(self.span(node), self.text(node))[0]

    def expand_into(self, acc: _Acc, node: Any, quoted: bool, assignment: bool = False) -> None:
        t = node.type
        if t == "word" or t == "number" or t == "test_operator" or t == "extglob_pattern" or t == "regex":
            a = node.start_byte
            if not quoted and not assignment and self.data[a : a + 1] == b"~" and acc.n == 0:
                end = self.data.find(b"/", a, node.end_byte)
                end = node.end_byte if end < 0 else end
                home = self._var_word("HOME", self.loc.span(a, end)) if end == a + 1 else None
                if home is not None and home.known and home.value:
                    acc.text(home.value, [Run(acc.n, len(home.value), self.loc.span(a, end), False)])
                    acc.started = True
                else:
                    acc.hole("the home directory (~)", self.loc.span(a, end), False)
                a = end
            self._lit_escapes(acc, a, node.end_byte, "unquoted" if not quoted else "quoted-word")
            return
        if t == "raw_string":
            a, b = node.start_byte + 1, node.end_byte
            if b - 1 >= a and self.data[b - 1 : b] == b"'":
                b -= 1
            acc.started = True
            acc.quoted = True
            self._lit_plain(acc, a, b)
            return
        if t == "string":
            self._string(acc, node)
            return
        if t == "ansi_c_string":
            self._ansi(acc, node)
            return
        if t == "translated_string":
            self._string(acc, node)
            return
        if t == "concatenation":
            kids = node.children
            for c in kids:
                self.expand_into(acc, c, quoted, assignment) if c is not kids[
                    -1
                ] or c.is_named or c.type != "$" else self._bare_dollar(acc, node, quoted)
            return
        if t == "simple_expansion":
            self._simple_expansion(acc, node, quoted)
            return
        if t == "expansion":
            self._expansion(acc, node, quoted)
            return
        if t == "command_substitution":
            self._command_substitution(acc, node, quoted)
            return
        if t == "arithmetic_expansion":
            v = self.arith_node(node)
            sp = self.span(node)
            if v is None:
                acc.hole(f"arithmetic {self.text(node)!r} on unknown values", sp, not quoted)
            else:
                s = str(v)
                acc.text(s, [Run(acc.n, len(s), sp, False)])
            return
        if t == "process_substitution":
            acc.hole("a process substitution (/dev/fd/N)", self.span(node), False)
            return
        if t == "brace_expression":
            nums = [c for c in node.children if c.type == "number"]
            if len(nums) == 2 and not quoted:
                try:
                    lo, hi = int(self.text(nums[0])), int(self.text(nums[1]))
                except ValueError:
                    lo, hi = 0, -1
                if abs(hi - lo) <= 4096:
                    step = 1 if hi >= lo else -1
                    sp = self.span(node)
                    vals = [str(x) for x in range(lo, hi + step, step)]
                    for k, s in enumerate(vals):
                        if k:
                            acc.brk()
                        acc.text(s, [Run(acc.n, len(s), sp, False)])
                    return
            self._lit_plain(acc, node.start_byte, node.end_byte)
            return
        if t == "array":
            acc.hole("an array literal", self.span(node), True)
            return
        if t == "ERROR" or node.is_missing:
            self._lit_escapes(acc, node.start_byte, node.end_byte, "unquoted")
            return
        if node.is_named and node.child_count:
            for c in node.children:
                self.expand_into(acc, c, quoted, assignment)
            return
        self._lit_escapes(acc, node.start_byte, node.end_byte, "unquoted" if not quoted else "quoted-word")

    def _bare_dollar(self, acc: _Acc, node: Any, quoted: bool) -> None:
        """tree-sitter-bash reads ``$D/p_$i.yaml`` as ``$D/p_$`` and a separate word
        ``i.yaml`` (and ``X=$D/p_$i`` as an assignment and a command ``i``): bash
        reads one word with ``$i`` in it.  The ``$`` ending ``node`` takes the name
        from the word glued to it, which is then consumed (`consumed`)."""
        up = node
        nxt = up.next_sibling
        while nxt is None and up.parent is not None and up.parent.end_byte == up.end_byte:
            up = up.parent  # X=$D/p_$i: the word glued to the assignment
            nxt = up.next_sibling
        data = self.data
        m = _NAME_AT.match(data, node.end_byte) if nxt is not None and nxt.start_byte == node.end_byte else None
        if m is None or nxt.type not in ("word", "command_name", "number"):
            self._lit_plain(acc, node.end_byte - 1, node.end_byte)
            return
        self.consumed.add(nxt.id)
        name = m.group().decode()
        sp = self.loc.span(node.end_byte - 1, m.end())
        w = self._var_word(name, sp)
        if w is None:
            acc.hole(f"${name} is not set by this script", sp, not quoted)
        else:
            acc.word(w, not quoted, self.st.ifs)
        if m.end() < nxt.end_byte:
            self._lit_escapes(acc, m.end(), nxt.end_byte, "unquoted" if not quoted else "quoted-word")

    def _lit_plain(self, acc: _Acc, a: int, b: int) -> None:
        if a >= b:
            acc.started = True
            return
        text = self.data[a:b].decode("utf-8", "surrogateescape")
        acc.text(text, self.loc.runs(a, b, acc.n, text))

    def _lit_escapes(self, acc: _Acc, a: int, b: int, mode: str) -> None:
        """Literal source text with backslash rules: ``unquoted`` (``\\x`` -> x),
        ``dq`` (only ``\\$ \\` \\" \\\\`` and line continuations), ``heredoc``
        (as dq but ``\\"`` stays), ``raw`` / ``quoted-word`` (no escapes)."""
        data = self.data
        acc.started = True
        if mode in ("raw", "quoted-word"):
            if mode == "quoted-word":
                # a word inside ${X:-word} in quotes keeps unquoted escapes
                mode = "unquoted"
            else:
                self._lit_plain(acc, a, b)
                return
        pos = a
        while pos < b:
            k = data.find(b"\\", pos, b)
            if k < 0:
                self._lit_plain(acc, pos, b)
                return
            if k > pos:
                self._lit_plain(acc, pos, k)
            nxt = data[k + 1 : k + 2]
            if not nxt:
                self._lit_plain(acc, k, k + 1)
                return
            if nxt == b"\n":
                pos = k + 2
                continue
            if mode == "unquoted":
                # the escaped character stands for itself (UTF-8 aware)
                e = k + 2
                while e < b and (data[e] & 0xC0) == 0x80:
                    e += 1
                self._lit_plain(acc, k + 1, e)
                pos = e
                continue
            special = b'$`"\\' if mode == "dq" else b"$`\\"
            if nxt in special:
                self._lit_plain(acc, k + 1, k + 2)
                pos = k + 2
            else:
                self._lit_plain(acc, k, k + 1)
                pos = k + 1

    def _string(self, acc: _Acc, node: Any) -> None:
        acc.started = True
        acc.quoted = True
        kids = node.children
        a = node.start_byte
        if kids and not kids[0].is_named and kids[0].type in ('"', '$"'):
            a = kids[0].end_byte
        b = node.end_byte
        # the closing quote token may include the blanks before it (tree-sitter)
        last = kids[-1] if len(kids) > 1 else None
        if (
            last is not None
            and not last.is_named
            and last.type == '"'
            and not last.is_missing
            and self.data[b - 1 : b] == b'"'
        ):
            b -= 1
        pos = a
        for c in kids:
            if not c.is_named:
                continue
            if c.type in ("string_content",):
                continue
            if c.start_byte < pos:
                continue
            # tree-sitter puts the blanks before an expansion into its node
            # (``"$a $b"`` has a child `` $b``): they are literal text
            start = c.start_byte
            data = self.data
            while start < c.end_byte and data[start] in b" \t\n":
                start += 1
            self._lit_escapes(acc, pos, start, "dq")
            self.expand_into(acc, c, quoted=True)
            pos = c.end_byte
        if pos < b:
            self._lit_escapes(acc, pos, b, "dq")

    def _ansi(self, acc: _Acc, node: Any) -> None:
        acc.started = True
        acc.quoted = True
        a, b = node.start_byte + 2, node.end_byte
        if b - 1 >= a and self.data[b - 1 : b] == b"'":
            b -= 1
        data = self.data
        pos = a
        while pos < b:
            k = data.find(b"\\", pos, b)
            if k < 0:
                self._lit_plain(acc, pos, b)
                return
            if k > pos:
                self._lit_plain(acc, pos, k)
            c = data[k + 1 : k + 2].decode("latin-1")
            end = k + 2
            ch = ""
            if c in _ANSI:
                ch = _ANSI[c]
            elif c == "x":
                m = re.match(rb"[0-9a-fA-F]{1,2}", data[end : min(b, end + 2)])
                if m:
                    ch = chr(int(m.group(), 16))
                    end += m.end()
                else:
                    ch = "\\x"
            elif c in ("u", "U"):
                n = 4 if c == "u" else 8
                m = re.match(rb"[0-9a-fA-F]{1,%d}" % n, data[end : min(b, end + n)])
                if m:
                    cp = int(m.group(), 16)
                    ch = chr(cp) if cp < 0x110000 else "\ufffd"
                    end += m.end()
                else:
                    ch = "\\" + c
            elif c in "01234567":
                m = re.match(rb"[0-7]{1,3}", data[k + 1 : min(b, k + 4)])
                ch = chr(int(m.group(), 8) & 0xFF) if m else ""
                end = k + 1 + (m.end() if m else 1)
            elif c == "c" and end < b:
                ch = chr(data[end] & 0x1F)
                end += 1
            elif c == "":
                ch = "\\"
            else:
                ch = "\\" + c
            if ch:
                sp = self.loc.span(k, end)
                acc.text(ch, [Run(acc.n, len(ch), sp, False)])
            pos = end

    def _var_word(self, name: str, span: Span) -> Optional[Word]:
        """The value of $name, or None when the script never sets it."""
        if name.isdigit():
            if name == "0":
                return _synth(self.path, span)
            pos = self.st.positional
            if pos is None:
                return _hole_word(f"argument ${name} of the script", span)
            k = int(name)
            return pos[k - 1] if k <= len(pos) else Word("", span)
        if name == "#":
            pos = self.st.positional
            return _synth(str(len(pos)), span) if pos is not None else _hole_word("the number of arguments", span)
        if name in ("?", "$", "!", "-", "_"):
            return _hole_word(f"${name}", span)
        b = self.lookup(name)
        if b is None:
            # with a known caller environment, a name nobody set is empty
            return Word("", span) if self.environ is not None else None
        if b.unset:
            return Word("", span)
        if b.value is None:
            return Word("", span)
        return b.value

    def _simple_expansion(self, acc: _Acc, node: Any, quoted: bool) -> None:
        sp = self.span(node)
        kids = [c for c in node.children if c.is_named]
        name = self.text(kids[0]) if kids else self.text(node)[1:]
        if name in ("@", "*"):
            self._positional_all(acc, name, quoted, sp)
            return
        w = self._var_word(name, sp)
        if w is None:
            acc.hole(f"${name} is not set by this script", sp, not quoted)
            return
        acc.word(w, not quoted, self.st.ifs)

    def slice_words(self, arr: Sequence[Word], operand: list[Any], sp: Span) -> Optional[list[Word]]:
        """``arr[offset:offset+length]`` of ``${A[@]:offset:length}`` (a negative offset
        counts from the end), or None when either is not known."""
        ow = self._operand(operand, True, sp)
        if not ow.known:
            return None
        parts = ow.value.split(":")
        if len(parts) > 2:
            return None

        def num(x: str) -> Optional[int]:
            x = x.strip()
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", x):  # a name is its variable's value
                v = self._var_word(x, sp)
                return self.arith_text(v.text) if v is not None and v.known else None
            return self.arith_text(x) if x else None

        nums = [num(x) for x in parts]
        if any(x is None for x in nums):
            return None
        off = nums[0]
        assert off is not None
        if off < 0:
            off = max(len(arr) + off, 0)
        out = list(arr[off:])
        if len(nums) > 1:
            n = nums[1]
            assert n is not None
            if n < 0:
                return None  # a negative length (from the end): not followed
            out = out[:n]
        return out

    def _positional_all(self, acc: _Acc, name: str, quoted: bool, sp: Span) -> None:
        pos = self.st.positional
        if pos is None:
            acc.hole(f"${name}: the arguments of the {'function' if self.call_stack else 'script'}", sp, True)
            self.unknown("array", f"${name} expands to arguments vcfg does not know", sp)
            return
        self._array_words(acc, pos, quoted and name == "@", quoted, sp)

    def _array_words(self, acc: _Acc, elems: Sequence[Word], separate: bool, quoted: bool, sp: Span) -> None:
        if separate:
            for k, w in enumerate(elems):
                if k:
                    acc.brk()
                acc.started = True
                acc.word(w, False)
            if not elems and not acc.parts and not acc.holes:
                acc.started = False
            return
        for k, w in enumerate(elems):
            if k:
                if quoted:
                    acc.text(" ", [Run(acc.n, 1, sp, False)])
                else:
                    acc.brk()
            if quoted and _is_words_hole(w):
                acc.hole(w.describe_unknown(), w.span, False)  # joined into the one word
                continue
            acc.word(w, not quoted, self.st.ifs)

    def _expansion(self, acc: _Acc, node: Any, quoted: bool) -> None:
        sp = self.span(node)
        kids = node.children
        prefix_op = None
        name_node = None
        op = None
        operand: list[Any] = []
        for c in kids:
            t = c.type
            if not c.is_named:
                if t in ("${", "}"):
                    continue
                if name_node is None and t in ("#", "!"):
                    prefix_op = t
                    continue
                if op is None:
                    op = t
                    continue
                operand.append(c)
                continue
            if name_node is None and t in ("variable_name", "special_variable_name", "subscript"):
                name_node = c
                continue
            operand.append(c)
        if name_node is None:
            acc.hole(f"{self.text(node)}", sp, not quoted)
            return
        # arrays
        if name_node.type == "subscript":
            base = name_node.child_by_field_name("name")
            idx = name_node.child_by_field_name("index")
            nm = self.text(base) if base is not None else ""
            it = self.text(idx) if idx is not None else ""
            arr = self.st.arrays.get(nm, ())
            if nm not in self.st.arrays:
                b = self.lookup(nm)
                arr = (
                    (b.value,) if b is not None and b.value is not None and not b.unset else (None if b is None else ())
                )
            if it in ("@", "*"):
                if arr is None:
                    acc.hole(f"array {nm} is not known", sp, True)
                    self.unknown("array", f'"${{{nm}[{it}]}}" of an array vcfg does not know', sp)
                    return
                if prefix_op is not None and _first_open(arr) is not None:
                    # the array ends in words vcfg does not know: so are its length, indexes
                    acc.hole(f"{self.text(node)}: array {nm} is not all known", sp, prefix_op == "!" and not quoted)
                    return
                if prefix_op == "#":
                    s = str(len(arr))
                    acc.text(s, [Run(acc.n, len(s), sp, False)])
                    return
                if prefix_op == "!":
                    arr = tuple(_synth(str(k), sp) for k in range(len(arr)))
                if op == ":" and prefix_op is None and _first_open(arr) is None:
                    # ${A[@]:offset[:length]}: both arithmetic (`0:$N`, `$((i*2)):2`)
                    sliced = self.slice_words(arr, operand, sp)
                    if sliced is not None:
                        self._array_words(acc, sliced, quoted and it == "@", quoted, sp)
                        return
                if op is not None:
                    acc.hole(f"{self.text(node)}", sp, not quoted)
                    return
                self._array_words(acc, arr, quoted and it == "@", quoted, sp)
                return
            if arr is None:
                acc.hole(f"array {nm} is not known", sp, not quoted)
                return
            iw = self.expand_value(idx) if idx is not None else None
            k = self.arith_text(iw.text) if iw is not None and iw.known else None
            op_at = _first_open(arr)
            if k is None or op is not None or prefix_op is not None or (op_at is not None and not 0 <= k < op_at):
                acc.hole(f"{self.text(node)}", sp, not quoted)
                return
            w = arr[k] if 0 <= k < len(arr) else Word("", sp)
            acc.word(w, not quoted, self.st.ifs)
            return
        name = self.text(name_node)
        if name in ("@", "*"):
            if op is None and prefix_op is None:
                self._positional_all(acc, name, quoted, sp)
                return
            pos = self.st.positional
            if prefix_op == "#" and op is None and pos is not None:
                s = str(len(pos))
                acc.text(s, [Run(acc.n, len(s), sp, False)])
                return
            if op == ":" and prefix_op is None and pos is not None:
                # ${@:offset[:length]}: a slice of the arguments ($0 is offset 0)
                ow = self._operand(operand, True, sp)
                parts = ow.value.split(":") if ow.known else []
                try:
                    off = int(parts[0])
                    length = int(parts[1]) if len(parts) > 1 else None
                except (ValueError, IndexError):
                    off, length = -1, None
                if off >= 0 and (length is None or length >= 0):
                    elems = ([_synth(self.path, sp)] + list(pos))[off:]
                    if length is not None:
                        elems = elems[:length]
                    self._array_words(acc, elems, quoted and name == "@", quoted, sp)
                    return
            acc.hole(f"{self.text(node)}: arguments vcfg does not know", sp, True)
            return
        val = self._var_word(name, sp)
        if prefix_op == "#" and op is None:
            if val is not None and val.known:
                s = str(len(val.value))
                acc.text(s, [Run(acc.n, len(s), sp, False)])
            else:
                acc.hole(f"the length of ${name}", sp, False)
            return
        if prefix_op == "!":
            acc.hole(f"indirect expansion {self.text(node)}", sp, not quoted)
            return
        if op is None:
            if val is None:
                acc.hole(f"${name} is not set by this script", sp, not quoted)
            else:
                acc.word(val, not quoted, self.st.ifs)
            return
        if op in (":-", "-", ":=", "=", ":+", "+", ":?", "?"):
            colon = op.startswith(":")
            if name.isdigit() and name != "0" and self.st.positional is None and not self.call_stack:
                val = None  # an argument the caller may not give, like a variable it may not set
            assumed = val is None
            if val is None:
                is_set, is_null = False, True
            elif not val.known:
                if val.value:
                    is_set, is_null = True, False
                else:
                    acc.hole(f"${name} is not known ({val.describe_unknown()})", sp, not quoted)
                    return
            else:
                if name.isdigit():
                    pos = self.st.positional
                    is_set = name == "0" or (pos is not None and int(name) <= len(pos))
                else:
                    b = self.lookup(name)
                    is_set = b is not None and not b.unset and b.value is not None
                is_null = val.value == ""
            use_alt = (not is_set) or (colon and is_null)
            base = op.lstrip(":")
            opw = self._operand(operand, quoted, sp)
            split_operand = not quoted and not (len(operand) == 1 and operand[0].type in ("string", "raw_string"))
            if base == "-":
                if use_alt:
                    if assumed:
                        opw = _assume(opw, f"${name} is not set by the caller (default from {self.text(node)})")
                    acc.word(opw, split_operand, self.st.ifs)
                else:
                    acc.word(val, not quoted, self.st.ifs)  # type: ignore[arg-type]
            elif base == "=":
                if use_alt:
                    if assumed:
                        opw = _assume(opw, f"${name} is not set by the caller (default from {self.text(node)})")
                    self.set_var(name, opw, sp, _Ctx())
                    acc.word(opw, not quoted, self.st.ifs)
                else:
                    acc.word(val, not quoted, self.st.ifs)  # type: ignore[arg-type]
            elif base == "+":
                if use_alt:
                    if assumed:
                        acc.assumptions.append(f"${name} is not set by the caller")
                    acc.started = acc.started or quoted
                else:
                    acc.word(opw, split_operand, self.st.ifs)
            else:  # ?
                if use_alt:
                    acc.hole(f"${name} must be set ({self.text(node)})", sp, not quoted)
                else:
                    acc.word(val, not quoted, self.st.ifs)  # type: ignore[arg-type]
            return
        # string operations on a known value
        if val is None or not val.known:
            acc.hole(f"{self.text(node)} of an unknown value", sp, not quoted)
            return
        res = self._string_op(val.value, op, operand, sp)
        if res is None:
            acc.hole(f"{self.text(node)} is not modelled", sp, not quoted)
            return
        acc.word(_synth(res, sp), not quoted, self.st.ifs)

    def _operand(self, nodes: list[Any], quoted: bool, sp: Span) -> Word:
        acc = _Acc()
        for c in nodes:
            self.expand_into(acc, c, quoted=True)
        acc.started = True
        words = acc.finish(sp, "")
        return words[0] if words else Word("", sp)

    def _string_op(self, v: str, op: str, operand: list[Any], sp: Span) -> Optional[str]:
        ow = self._operand(operand, True, sp)
        if not ow.known:
            return None
        pat = ow.value
        if op in ("#", "##", "%", "%%"):
            rng = range(len(v) + 1)
            if op == "#":
                for k in rng:
                    if fnmatch.fnmatchcase(v[:k], pat):
                        return v[k:]
            elif op == "##":
                for k in reversed(rng):
                    if fnmatch.fnmatchcase(v[:k], pat):
                        return v[k:]
            elif op == "%":
                for k in reversed(rng):
                    if fnmatch.fnmatchcase(v[k:], pat):
                        return v[:k]
            else:
                for k in rng:
                    if fnmatch.fnmatchcase(v[k:], pat):
                        return v[:k]
            return v
        if op in ("^^",):
            return v.upper()
        if op in (",,",):
            return v.lower()
        if op in ("/", "//") and "*" not in pat and "?" not in pat and "[" not in pat:
            src, _, rep = pat.partition("/")
            if not src:
                return v
            return v.replace(src, rep) if op == "//" else v.replace(src, rep, 1)
        if op == ":":
            parts = pat.split(":")
            try:
                off = int(parts[0])
                if len(parts) > 1:
                    ln = int(parts[1])
                    return v[off : off + ln] if ln >= 0 else v[off:ln]
                return v[off:]
            except ValueError:
                return None
        return None

    def _command_substitution(self, acc: _Acc, node: Any, quoted: bool) -> None:
        sp = self.span(node)
        raw = self.text(node).lstrip(" \t\n")
        if raw.startswith("$((") and raw.endswith("))"):
            # tree-sitter reads $((...)) in a heredoc as $( (subshell) )
            v = _arith_eval_text(raw[3:-2], lambda n: self._var_int(n, {}))
            if v is None:
                acc.hole(f"arithmetic {raw!r} on unknown values", sp, not quoted)
            else:
                s = str(v)
                acc.text(s, [Run(acc.n, len(s), sp, False)])
            return
        stmts = [c for c in node.children if c.is_named and c.type != "comment"]
        if len(stmts) == 1:
            s = stmts[0]
            # $(cat <<EOF ... EOF): the heredoc's text
            if s.type == "redirected_statement":
                body = s.child_by_field_name("body")
                hd = [c for c in s.children if c.type == "heredoc_redirect"]
                if body is not None and hd and self.text(body).strip() == "cat":
                    w = self.heredoc_content(hd[0])
                    if w is not None and w.value.endswith("\n"):
                        w = w.slice(0, len(w.value.rstrip("\n")))
                    if w is not None:
                        acc.word(w, not quoted, self.st.ifs)
                        return
            if s.type == "command":
                argv: list[Word] = []
                for c in s.children:
                    if c.type == "command_name":
                        for d in c.children:
                            argv.extend(self.expand(d))
                    elif c.is_named and c.type not in ("variable_assignment", "file_redirect"):
                        argv.extend(self.expand(c))
                if argv and all(w.known for w in argv):
                    out = _simple_output(argv)
                    if out is not None:
                        acc.word(_synth(out, sp), not quoted, self.st.ifs)
                        return
                    if argv[0].value == "echo" and all(not w.value.startswith("-") for w in argv[1:]):
                        j = _Acc()
                        for k, w in enumerate(argv[1:]):
                            if k:
                                j.text(" ", [Run(j.n, 1, sp, False)])
                            j.word(w, False)
                        j.started = True
                        acc.word(j.finish(sp, "")[0], not quoted, self.st.ifs)
                        return
        body = self.text(node)
        short = body if len(body) <= 60 else body[:57] + "..."
        acc.hole(f"the output of {short}", sp, not quoted)


def _known_basename(w: Word) -> Optional[str]:
    """The last path component of a partly unknown word, when it is known
    (``$SCRIPT_DIR/toy_proxy_server.py``)."""
    if w.known:
        return _basename(w.value)
    cut = w.value.rfind("/")
    if cut < 0 or any(h.at > cut for h in w.holes):
        return None
    return w.value[cut + 1 :] or None


class _LaunchCap(Exception):
    """`MAX_LAUNCHES` launches read or `MAX_STEPS` statements run: the interpreter stops
    (caught in `_Interp.run`)."""


def _repo_root(folder: str) -> str:
    """The nearest folder at or above ``folder`` holding ``.git``; else ``folder``."""
    d = folder
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return d
        up = os.path.dirname(d)
        if up == d:
            return folder
        d = up


def _at(ctx: _Ctx) -> str:
    return f" ({ctx.iteration})" if ctx.iteration else ""


def _list_items(node: Any) -> list[Any]:
    """The parts and operators of ``a && b || c``, which tree-sitter nests to the left
    (``((a && b) || c)``): one flat sequence, so that a part that may not run is one
    path through the whole list."""
    out: list[Any] = []
    todo = list(node.children)
    while todo:
        first = todo[0]
        if first.type == "list" and first.is_named:
            todo = list(first.children) + todo[1:]
            continue
        out.extend(todo)
        break
    return out


def _chain_paths(
    name: str, pairs: list[tuple[Optional[Binding], str]], states: list[_State], kept: dict[str, Any]
) -> list[tuple[Optional[Binding], str]]:
    """``CMD="$CMD --x"`` in an ``if`` after an earlier ``if`` that set CMD alone: the
    value on each path of both, the earlier value put where the branch read it (an
    earlier decision that set other variables too is not chained: its paths would no
    longer vary together)."""
    prior = next((s.alts[name] for s in states if name in s.alts), None)
    if prior is None or any(v[2] == prior[2] for v in kept.values()):
        return pairs
    merged, before, _ = prior
    if merged.value is None or not merged.value.holes:
        return pairs
    mark = merged.value.holes[-1]  # its own: the last (`_common_head` keeps the common ones before it)
    # a path of the earlier decision that left the variable to the caller: its value there
    caller = _hole_word(f"${name} is not set by this script", mark.span)
    out: list[tuple[Optional[Binding], str]] = []
    for b, label in pairs:
        if b is merged:
            out.extend((pb, f"{plabel} and {label}") for pb, plabel in before)
        elif (
            b is not None
            and b.value is not None
            and any(h.reason == mark.reason and h.span == mark.span for h in b.value.holes)
        ):
            for pb, plabel in before:
                value = pb.value if pb is not None else caller
                if mark.at and value is not None:
                    # the merged value kept the words all paths start with (`_common_head`)
                    value = _cut(value, mark.at, len(value.value), True)
                out.append((b._replace(value=_put_value(b.value, mark, value)), f"{plabel} and {label}"))
        else:
            out.append((b, label))
    return out


def _put_value(w: Word, mark: Any, value: Optional[Word]) -> Word:
    """``w`` with ``value`` where its holes marked like ``mark`` are."""

    def marked(h: Any) -> bool:
        return h.reason == mark.reason and h.span == mark.span

    def piece(a: int, b: int, end: bool) -> Word:
        p = _cut(w, a, b, end)
        return p._replace(holes=tuple(h for h in p.holes if not marked(h)))

    acc = _Acc()
    last = 0
    for h in sorted(w.holes, key=lambda h: h.at):
        if not marked(h):
            continue
        if h.at > last:
            acc.word(piece(last, h.at, False), False)
        acc.word(value if value is not None else Word("", h.span), False)
        last = h.at
    acc.word(piece(last, len(w.value), True), False)
    acc.started = True
    acc.quoted = w.quoted
    return acc.finish(w.span, w.raw)[0]


def _repo_file(script: str, target: str) -> Optional[str]:
    """The file ``source target`` reads, when it is in the script's repository
    (relative paths from the script's folder: where such scripts are run from)."""
    if not script or script.startswith("<") or not os.path.isfile(script):
        return None
    here = os.path.dirname(os.path.abspath(script))
    full = os.path.realpath(target if os.path.isabs(target) else os.path.join(here, target))
    root = os.path.realpath(_repo_root(here))
    if not (full == root or full.startswith(root + os.sep)) or not os.path.isfile(full):
        return None
    return full


# --------------------------------------------------------------------------- API


def parse_script(
    text: bytes | str,
    path: str = "<script>",
    *,
    environ: Optional[Mapping[str, str]] = None,
    args: Optional[Sequence[str]] = None,
    reuse: Any = None,
) -> LaunchPlan:
    """Read a bash script and return its `LaunchPlan`.  Never raises.

    ``environ``: the caller's environment, if known (otherwise a variable the
    script does not set is unknown).  ``args``: the script's own arguments
    ($1 ...), if known (a role-switch launcher run as ``run.sh decode``).
    ``reuse``: a `vcfg.launch.shell_reuse.ShellMemo` holding the last read of this
    document, which resumes it where the text changed (the same plan as a read
    from scratch, faster after a small edit).
    """
    if isinstance(text, str):
        data = text.encode("utf-8", "surrogateescape")
    else:
        data = bytes(text)
    li = LineIndex(data, path)
    problems: list[ParseProblem] = []
    if len(data) > MAX_BYTES:
        problems.append(ParseProblem("too-large", f"file larger than {MAX_BYTES >> 20} MiB is not read", li.span(0, 0)))
        return LaunchPlan(path, problems=tuple(problems))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        problems.append(ParseProblem("encoding", f"not valid UTF-8 ({e.reason})", li.span(e.start, e.end)))
    if b"\r\n" in data:
        k = data.index(b"\r\n")
        problems.append(
            ParseProblem(
                "crlf",
                "Windows line endings: bash keeps the \\r as part of the last word of each line "
                "(`then\\r`, `do\\r` and `fi\\r` are no keywords), and a '\\' before it does not "
                "continue the command",
                li.span(k, k + 1),
            )
        )
    if b"\x00" in data:
        # a script holds no NUL: what follows one is not read (a binary file's bytes
        # cost a parse of the whole file, 20 MiB of /dev/urandom took 20 s)
        k = data.index(b"\x00")
        problems.append(
            ParseProblem(
                "encoding", "NUL byte: this looks like a binary file; vcfg does not read past it", li.span(k, k + 1)
            )
        )
        data = data[:k]
    lone_cr = re.search(rb"\r(?!\n)", data) if b"\r" in data else None
    if lone_cr is not None and data.count(b"\r") > data.count(b"\n") // 2:
        # editors end a line there (and vcfg's positions follow them); bash does not
        k = lone_cr.start()
        problems.append(
            ParseProblem(
                "crlf",
                "carriage returns end these lines (old Mac line endings), but not for bash: it reads "
                "the text after each as part of the line before (after a `#`, as the rest of the comment)",
                li.span(k, k + 1),
            )
        )
    if data.startswith(b"\xef\xbb\xbf"):
        # bash reads the mark as part of the first command's name ("\ufeffvllm: command
        # not found"): said once, and the script read as if it were not there (the
        # same byte offsets, so every position stays the file's own)
        problems.append(
            ParseProblem(
                "encoding",
                "the file starts with a UTF-8 byte-order mark (BOM): bash reads it as part of "
                "the first command's name, which is then not found; save the file without it",
                li.span(0, 3),
            )
        )
        data = b"   " + data[3:]
    interp = _Interp(data, path, environ, args, li)
    read: list[Any] = []  # the top-level statements read, for the shape

    def pieces() -> Iterator[Sequence[Any]]:
        for children in top_level(data, li, problems):
            read.extend(children)
            yield children

    try:
        if reuse is not None and len(data) <= CHUNK:
            # the last read of this document, resumed (the language server:
            # vcfg/launch/shell_reuse.py); one it cannot resume is read from scratch
            n = len(problems)
            try:
                read = reuse.run(interp, data, li, problems, (path, environ, args))
            except Exception:  # noqa: BLE001 - the read from scratch says what is wrong, if anything
                reuse.forget()
                reuse = None
                del problems[n:]
                interp = _Interp(data, path, environ, args, li)
                interp.run(pieces())
        else:
            interp.run(pieces())
    except RecursionError:
        problems.append(ParseProblem("too-deep", "nesting too deep to analyse", li.span(0, 0)))
    except Exception as e:  # never let a bug in vcfg reach the user as a traceback
        problems.append(
            ParseProblem("internal", f"vcfg could not analyse this script: {type(e).__name__}: {e}", li.span(0, 0))
        )
    root = Program(read)
    problems.extend(interp.problems)
    if interp.cap_note is not None:
        problems.append(interp.cap_note)
    shape = None
    if root is not None and len(interp.invocations) >= 2 and any(i.background for i in interp.invocations):
        from vcfg.launch.shape import script_shape

        try:
            # the last read's parts where the statements did not change (shell_reuse.py)
            shape = reuse.shape(read, data) if reuse is not None and len(data) <= CHUNK else script_shape(root, data)
        except Exception:  # noqa: BLE001 - no shape: every launch counts as unconditional
            shape = None
    if shape is not None and interp.stop_sites:
        shape = shape._replace(stops=tuple(sorted(set(shape.stops) | set(interp.stop_sites))))
    if shape is not None and interp.stop_seqs:
        shape = shape._replace(stop_seqs=tuple(interp.stop_seqs))
    seen: set[tuple[str, int]] = set()
    unique = []
    for p in problems:
        if (p.code, p.span.start) not in seen:
            seen.add((p.code, p.span.start))
            unique.append(p)
    problems = sorted(unique, key=lambda p: (p.span.start, p.code))
    return LaunchPlan(
        path=path,
        invocations=tuple(interp.invocations),
        timeline=tuple(interp.timeline),
        unknowns=tuple(dict.fromkeys(interp.unknowns)),  # once, though read on each path
        problems=tuple(problems),
        written_files=tuple(interp.written),
        source_kind="bash",
        shape=shape,
        starts=tuple(interp.starts),
    )


def parse_file(path: str, **kw: Any) -> LaunchPlan:
    """`parse_script` on a file (VcfgError if it cannot be read)."""
    from vcfg.errors import VcfgError

    try:
        from vcfg.fileio import read_regular

        data = read_regular(path, MAX_BYTES)
    except OSError as e:
        raise VcfgError(f"cannot read {path}: {e.strerror}", hint="check the path") from None
    return parse_script(data, path, **kw)


_FENCE_RE = lazy(r"^([ \t>]*)(`{3,}|~{3,})[ \t]*([^`\s{]*)")
#: fenced block languages read as shell; problems are reported only for the first four
_SHELL_LANGS = {"bash", "sh", "shell", "zsh", "console", "shell-session", "shellsession", "text", ""}
#: a line that is only a code span of three or more backticks (after a blockquote or list
#: marker): ```cmd --x``` is no fence (CommonMark: a backtick fence's info string holds no
#: backtick) but a one-line command, as a fenced block of one line would be
_SPAN_LINE_RE = lazy(rb"^[ \t>]*(?:(?:[-*+]|[0-9]{1,9}[.)])[ \t]+)?(`{3,})(?!`)[ \t]*(.*?[^` \t])[ \t]*(?<!`)\1[ \t]*$")


def markdown_fence(line: str) -> Optional[re.Match[str]]:
    """The opening fence of a Markdown code block on this line (its indentation, fence
    and language), or None; a backtick fence whose rest of line holds a backtick is an
    inline code span, not a fence (CommonMark)."""
    m = _FENCE_RE.match(line)
    if m and m.group(2)[0] == "`" and "`" in line[m.end(2) :]:
        return None
    return m


_STRICT_LANGS = {"bash", "sh", "shell", "zsh"}
#: every byte a blank but newlines: a document outside its shell blocks, byte for byte
_BLANKED = bytes(0x0A if b == 0x0A else 0x20 for b in range(256))


def parse_markdown(text: bytes | str, path: str = "<markdown>", **kw: Any) -> LaunchPlan:
    """The launches in a Markdown file's shell code blocks (```bash, ```sh,
    ```shell, ```console, ```text, no language; indented blocks in lists and
    admonitions too).  Everything outside the blocks is blanked, byte for
    byte, so positions are the file's own; ``$ `` prompts are dropped."""
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else bytes(text)
    out = bytearray(data.translate(_BLANKED))
    strict: list[tuple[int, int]] = []
    pos = 0
    fence: Optional[bytes] = None
    lang = ""
    block_start = 0
    for line in data.splitlines(keepends=True):
        start = pos
        pos += len(line)
        body = line.rstrip(b"\r\n")
        if fence is None:
            m = markdown_fence(body.decode("utf-8", "replace"))
            if m:
                fence = m.group(2).encode()[:1] * len(m.group(2))
                lang = m.group(3).lower()
                block_start = pos
            else:
                span = _SPAN_LINE_RE.match(body)
                if span:
                    out[start + span.start(2) : start + span.end(2)] = span.group(2)
            continue
        stripped = body.strip(b" \t>")
        if stripped.startswith(fence) and not stripped.strip(fence[:1]):
            if lang in _STRICT_LANGS:
                strict.append((block_start, start))
            if lang in _SHELL_LANGS:
                block = data[block_start:start]
                if OTHER_SERVER.search(block) and not VLLM_WORD.search(block):
                    # another server's example (SGLang's section of an engine comparison):
                    # what it exports is that server's, not a later vLLM block's
                    out[block_start:start] = block.translate(_BLANKED)
                # `:` where the closing fence is: a block's unfinished command (a `<tp>`
                # placeholder that ends a line is a redirection missing its file) takes
                # that word, not the next block's first words
                out[start + body.index(fence[:1])] = 0x3A
            fence = None
            continue
        if lang not in _SHELL_LANGS:
            continue
        _paste_line(out, line, start, lang, b" \t>")
    return _parse_pasted(out, path, strict, source_kind="markdown", **kw)


def _paste_line(out: bytearray, line: bytes, start: int, lang: str, lead: bytes) -> None:
    """One line of a shell code block (at byte ``start`` of the file) into ``out``, the
    file blanked byte for byte: its lead (indentation, blockquote markers: the bytes of
    ``lead``) and a ``$ `` prompt (``# `` in a console block) stay blanks."""
    body = line.rstrip(b"\r\n")
    k = len(body) - len(body.lstrip(lead))
    seg = bytearray(body)
    for j in range(k):
        seg[j] = 0x20
    if seg[k : k + 2] == b"$ " or seg[k : k + 2] == b"# " and lang == "console":
        seg[k] = 0x20
    out[start : start + len(seg)] = seg
    if line.endswith(b"\r\n") and (len(body) - len(body.rstrip(b"\\"))) % 2:
        # a block is pasted into a shell line by line, without the file's CR: its
        # `\` continues the command, so it moves onto the CR (a blank before it
        # would end the command)
        e = start + len(body)
        out[e - 1], out[e] = 0x20, 0x5C


def _parse_pasted(out: bytearray, path: str, strict: list[tuple[int, int]], source_kind: str, **kw: Any) -> LaunchPlan:
    """The launches in the pasted blocks; syntax problems only inside ``strict`` byte
    ranges (blocks labelled bash/sh/shell/zsh: a console or unlabelled block may be
    program output)."""
    plan = parse_script(bytes(out), path, **kw)
    problems = tuple(
        p
        for p in plan.problems
        if p.code not in ("syntax", "missing", "split-command", "crlf-continuation")
        or any(a <= p.span.start < b for a, b in strict)
    )
    return LaunchPlan(path, plan.invocations, plan.timeline, plan.unknowns, problems, plan.written_files, source_kind)


def parse_blocks(
    data: bytes,
    path: str,
    blocks: Sequence[tuple[str, int, int, int]],
    source_kind: str,
    lead: bytes = b" \t",
    **kw: Any,
) -> LaunchPlan:
    """The launches in a document's shell code blocks, found by its reader: each block
    is (language, first line, last line, byte offset of the first line), lines 1-based.
    As `parse_markdown`: everything outside the blocks is blanked byte for byte (an
    indented body keeps its columns), prompts dropped; blocks of another language
    are left out."""
    out = bytearray(data.translate(_BLANKED))
    strict: list[tuple[int, int]] = []
    lines = data.splitlines(keepends=True)
    for lang, a, b, off in blocks:
        if lang not in _SHELL_LANGS:
            continue
        pos = off
        for line in lines[a - 1 : b]:
            _paste_line(out, line, pos, lang, lead)
            pos += len(line)
        if lang in _STRICT_LANGS:
            strict.append((off, pos))
    return _parse_pasted(out, path, strict, source_kind, **kw)


def classify_argv(
    argv: Sequence[Word],
    env: Sequence[tuple[str, Word, Span]],
    span: Span,
    path: str,
    *,
    script: Optional[Word] = None,
) -> list[Invocation]:
    """Launches in one container's argv (or ``script``, a command string run
    by a shell), for manifests.  ``env`` is the container's environment; the
    launches do not inherit any script's environment."""
    interp = _Interp(b"", path, None, None)
    for name, w, sp in env:
        interp.st.vars[name] = Binding(name, w, True, sp, False, "prefix")
    try:
        if script is not None:
            interp.run_nested(script, _Ctx(), span, "command")
        elif argv:
            interp.classify(list(argv), [], _Ctx(), span, [])
    except (RecursionError, _Jump):
        pass
    return [i._replace(inherits_env=False) for i in interp.invocations]


__all__ = ["parse_script", "parse_file", "parse_markdown", "parse_blocks", "parse_tree", "classify_argv", "MAX_UNROLL"]
