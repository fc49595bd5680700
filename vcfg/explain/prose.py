"""vLLM's own help text, read at run time from a vLLM source the user has: the
installed vLLM when its version matches, else a release in vcfg's cache.  Never
committed, never downloaded unless asked (``vcfg catalog build --vllm-version X``
fills the cache).

Field docs follow vLLM's own convention: a string statement right after an
annotated assignment in the class body.  Variable docs are the ``#`` comment lines
just above the variable's key in ``environment_variables``.
"""

from __future__ import annotations

import ast
import inspect
import io
import tokenize
from typing import Optional

from vcfg.catalog.extract.source import VllmSource, from_version
from vcfg.catalog.local import installed_version
from vcfg.catalog.model import Catalog, Loc
from vcfg.errors import VcfgError


def local_source(version: str) -> Optional[VllmSource]:
    """A source for ``version`` that needs no network, or None."""
    try:
        if installed_version() == version:
            from vcfg.catalog.extract.source import from_installed

            return from_installed()
        return from_version(version, download=False)
    except VcfgError:
        return None


def field_doc(src: VllmSource, loc: Loc) -> Optional[str]:
    """The docstring that follows the field declared at ``loc``."""
    text = src.read(loc.file)
    if text is None:
        return None
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        body = node.body
        for a, b in zip(body, body[1:]):
            if (
                isinstance(a, (ast.AnnAssign, ast.Assign))
                and a.lineno == loc.line
                and isinstance(b, ast.Expr)
                and isinstance(b.value, ast.Constant)
                and isinstance(b.value.value, str)
            ):
                return inspect.cleandoc(b.value.value)
    return None


def env_doc(src: VllmSource, loc: Loc) -> Optional[str]:
    """The comment block right above the dict key at ``loc`` (vllm/envs.py)."""
    text = src.read(loc.file)
    if text is None:
        return None
    comments: dict[int, str] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                comments[tok.start[0]] = tok.string
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    lines = text.splitlines()
    out: list[str] = []
    n = loc.line - 1
    while n >= 1 and n in comments and lines[n - 1].lstrip().startswith("#"):
        body = comments[n].lstrip("#").strip()
        if set(body) <= {"=", "-"} and body:  # a section rule ends the block
            break
        out.append(body)
        n -= 1
    return "\n".join(reversed(out)).strip() or None


def help_text(cat: Catalog, loc: Optional[Loc], kind: str) -> tuple[Optional[str], Optional[str]]:
    """(text, note): the prose, or a note on how to get it."""
    src = local_source(cat.vllm_version)
    if src is None:
        return None, (
            f"vLLM's own description is read from a vLLM {cat.vllm_version} source; none is "
            f"installed or cached. `vcfg catalog build --vllm-version {cat.vllm_version}` "
            "downloads one (the .py files of the wheel) into vcfg's cache"
        )
    if loc is None:
        return None, None
    if kind == "env":
        return env_doc(src, loc), None
    return field_doc(src, loc), None
