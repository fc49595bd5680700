"""bash arithmetic (``$((...))``, ``((...))``, C-style ``for``) for the bash front end:
on tree-sitter nodes (`Arith`, mixed into the interpreter) and on text (for
``$((...))`` that tree-sitter reads inside a heredoc as a subshell)."""

from __future__ import annotations

import re
from typing import Any, Callable, Optional

from vcfg.launch.shell_state import _Ctx
from vcfg.launch.shell_words import _Acc, _synth
from vcfg.regex import lazy

_NAME_RE = lazy(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class Arith:
    """The interpreter's arithmetic on tree-sitter nodes; needs ``text``, ``span``,
    ``_var_word``, ``expand_into``, ``set_var`` and ``li`` from the interpreter."""

    text: Callable[..., str]
    span: Callable[..., Any]
    _var_word: Callable[..., Any]
    expand_into: Callable[..., None]
    set_var: Callable[..., None]
    li: Any

    def arith_text(self, s: Optional[str]) -> Optional[int]:
        if s is None:
            return None
        s = s.strip()
        try:
            if re.fullmatch(r"[-+]?0[0-7]+", s):
                return int(s, 8)
            if re.fullmatch(r"[-+]?0[xX][0-9a-fA-F]+", s):
                return int(s, 16)
            return int(s)
        except ValueError:
            return None

    def arith_node(self, node: Any) -> Optional[int]:
        kids = [c for c in node.children if c.is_named]
        if not kids:
            return None
        env: dict[str, int] = {}
        v = None
        for k in kids:
            v = self.arith(k, env)
        if env:
            sp = self.span(node)
            for name, val in env.items():
                self.set_var(name, _synth(str(val), sp), sp, _Ctx())
        return v

    def _var_int(self, name: str, env: dict[str, int]) -> Optional[int]:
        if name in env:
            return env[name]
        w = self._var_word(name, self.li.span(0, 0))
        if w is None:
            return None
        if not w.known:
            return None
        if w.value.strip() == "":
            return 0
        return self.arith_text(w.value)

    def arith(self, n: Any, env: dict[str, int]) -> Optional[int]:
        t = n.type
        if t == "number":
            return self.arith_text(self.text(n))
        if t in ("variable_name", "word"):
            txt = self.text(n)
            v = self.arith_text(txt)
            if v is not None:
                return v
            return self._var_int(txt, env) if _NAME_RE.match(txt) else None
        if t == "simple_expansion" or t == "expansion":
            acc = _Acc()
            self.expand_into(acc, n, quoted=True)
            acc.started = True
            w = acc.finish(self.span(n), "")[0]
            return self.arith_text(w.text) if w.known else None
        if t == "parenthesized_expression":
            kids = [c for c in n.children if c.is_named]
            return self.arith(kids[0], env) if len(kids) == 1 else None
        if t == "variable_assignment":
            nm = n.child_by_field_name("name")
            val = n.child_by_field_name("value")
            if nm is None or val is None:
                return None
            v = self.arith(val, env)
            if v is None:
                return None
            env[self.text(nm)] = v
            return v
        if t in ("postfix_expression", "unary_expression"):
            kids = [c for c in n.children if c.is_named]
            ops = [c.type for c in n.children if not c.is_named]
            if len(kids) != 1 or not ops:
                return None
            o = ops[0]
            k = kids[0]
            if o in ("++", "--"):
                nm = self.text(k)
                cur = self._var_int(nm, env)
                if cur is None:
                    return None
                new = cur + 1 if o == "++" else cur - 1
                env[nm] = new
                return cur if t == "postfix_expression" else new
            v = self.arith(k, env)
            if v is None:
                return None
            return {"-": -v, "+": v, "!": int(not v), "~": ~v}.get(o)
        if t == "binary_expression":
            left = n.child_by_field_name("left")
            right = n.child_by_field_name("right")
            op_node = n.child_by_field_name("operator")
            if left is None or right is None or op_node is None:
                return None
            o = self.text(op_node)
            if o in ("=", "+=", "-=", "*=", "/="):
                nm = self.text(left)
                r = self.arith(right, env)
                if r is None:
                    return None
                cur = self._var_int(nm, env) if o != "=" else 0
                if cur is None:
                    return None
                v = {"=": r, "+=": cur + r, "-=": cur - r, "*=": cur * r, "/=": int(cur / r) if r else None}[o]
                if v is None:
                    return None
                env[nm] = v
                return v
            a = self.arith(left, env)
            b = self.arith(right, env)
            if a is None or b is None:
                return None
            try:
                if o == "+":
                    return a + b
                if o == "-":
                    return a - b
                if o == "*":
                    return a * b
                if o == "/":
                    return int(a / b) if b else None
                if o == "%":
                    return a - b * int(a / b) if b else None
                if o == "**":
                    return a**b if 0 <= b < 256 else None
                if o == "<<":
                    return a << b if 0 <= b < 256 else None
                if o == ">>":
                    return a >> b if b >= 0 else None
                if o == "&":
                    return a & b
                if o == "|":
                    return a | b
                if o == "^":
                    return a ^ b
                if o in ("<", "-lt"):
                    return int(a < b)
                if o in ("<=", "-le"):
                    return int(a <= b)
                if o in (">", "-gt"):
                    return int(a > b)
                if o in (">=", "-ge"):
                    return int(a >= b)
                if o in ("==", "-eq"):
                    return int(a == b)
                if o in ("!=", "-ne"):
                    return int(a != b)
                if o == "&&":
                    return int(bool(a) and bool(b))
                if o == "||":
                    return int(bool(a) or bool(b))
            except (OverflowError, ValueError):
                return None
            return None
        if t == "ternary_expression":
            kids = [c for c in n.children if c.is_named]
            if len(kids) != 3:
                return None
            c = self.arith(kids[0], env)
            if c is None:
                return None
            return self.arith(kids[1] if c else kids[2], env)
        return None


_ARITH_TOKEN = lazy(
    r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)|\$?\{?([A-Za-z_][A-Za-z0-9_]*)\}?|"
    r"(\*\*|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%()<>!~&|^]))"
)
_BINARY = {
    "||": 1,
    "&&": 2,
    "|": 3,
    "^": 4,
    "&": 5,
    "==": 6,
    "!=": 6,
    "<": 7,
    ">": 7,
    "<=": 7,
    ">=": 7,
    "<<": 8,
    ">>": 8,
    "+": 9,
    "-": 9,
    "*": 10,
    "/": 10,
    "%": 10,
    "**": 11,
}


def _arith_eval_text(expr: str, var: Callable[[str], Optional[int]]) -> Optional[int]:
    """bash arithmetic on a string (integers, variables, the usual operators);
    None when a value is unknown or the text is not understood."""
    toks: list[tuple[str, Any]] = []
    pos = 0
    expr = expr.strip()
    while pos < len(expr):
        m = _ARITH_TOKEN.match(expr, pos)
        if not m or m.end() == pos:
            return None
        if m.group(1):
            toks.append(
                (
                    "n",
                    int(m.group(1), 0)
                    if not m.group(1).startswith("0") or len(m.group(1)) == 1 or m.group(1)[1] in "xX"
                    else int(m.group(1), 8),
                )
            )
        elif m.group(2):
            v = var(m.group(2))
            if v is None:
                return None
            toks.append(("n", v))
        else:
            toks.append(("op", m.group(3)))
        pos = m.end()
    k = 0

    def unary() -> Optional[int]:
        nonlocal k
        if k >= len(toks):
            return None
        kind, v = toks[k]
        if kind == "n":
            k += 1
            return v
        if v in ("-", "+", "!", "~"):
            k += 1
            x = unary()
            if x is None:
                return None
            return {"-": -x, "+": x, "!": int(not x), "~": ~x}[v]
        if v == "(":
            k += 1
            x = binary(0)
            if x is None or k >= len(toks) or toks[k] != ("op", ")"):
                return None
            k += 1
            return x
        return None

    def binary(min_prec: int) -> Optional[int]:
        nonlocal k
        left = unary()
        while left is not None and k < len(toks) and toks[k][0] == "op" and toks[k][1] in _BINARY:
            op = toks[k][1]
            prec = _BINARY[op]
            if prec < min_prec:
                break
            k += 1
            right = binary(prec + (0 if op == "**" else 1))
            if right is None:
                return None
            try:
                left = {
                    "+": lambda a, b: a + b,
                    "-": lambda a, b: a - b,
                    "*": lambda a, b: a * b,
                    "/": lambda a, b: int(a / b),
                    "%": lambda a, b: a - b * int(a / b),
                    "**": lambda a, b: a**b if 0 <= b < 256 else None,
                    "<<": lambda a, b: a << b if 0 <= b < 256 else None,
                    ">>": lambda a, b: a >> b,
                    "&": lambda a, b: a & b,
                    "|": lambda a, b: a | b,
                    "^": lambda a, b: a ^ b,
                    "<": lambda a, b: int(a < b),
                    ">": lambda a, b: int(a > b),
                    "<=": lambda a, b: int(a <= b),
                    ">=": lambda a, b: int(a >= b),
                    "==": lambda a, b: int(a == b),
                    "!=": lambda a, b: int(a != b),
                    "&&": lambda a, b: int(bool(a and b)),
                    "||": lambda a, b: int(bool(a or b)),
                }[op](left, right)
            except (ZeroDivisionError, ValueError, OverflowError):
                return None
        return left

    try:
        result = binary(0)
    except RecursionError:
        return None
    return result if k == len(toks) else None
