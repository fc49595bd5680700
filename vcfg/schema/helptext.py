"""vLLM's own help texts, read at run time from a vLLM source the user has.

Used only when a user asks (``vcfg schema --vllm-source DIR``); never for the
committed schemas, which hold facts only.  Every lookup starts from a catalog
location and checks that the source still has the same thing there, so a source of
another release gives no text rather than the wrong one.

* config field: the string statement right after the field's annotated assignment
  (how vLLM documents fields; 0.33.0 config/utils.py:161-214 reads them the same way);
* flag without a config field: the literal ``help=`` of its ``add_argument`` call;
* environment variable: the ``#`` comment lines right above its entry in envs.py.
"""

from __future__ import annotations

import ast
import inspect
from typing import Optional

from vcfg.catalog.extract.source import VllmSource
from vcfg.catalog.model import ConfigField, EnvVar, Flag
from vcfg.records import field, record


@record
class HelpTexts:
    src: VllmSource
    _trees: dict[str, Optional[ast.Module]] = field(default_factory=dict)
    _lines: dict[str, list[str]] = field(default_factory=dict)

    def _tree(self, rel: str) -> Optional[ast.Module]:
        if rel not in self._trees:
            text = self.src.read(rel)
            self._lines[rel] = text.splitlines() if text else []
            try:
                self._trees[rel] = ast.parse(text) if text else None
            except (SyntaxError, ValueError):
                self._trees[rel] = None
        return self._trees[rel]

    def for_field(self, f: ConfigField) -> Optional[str]:
        tree = self._tree(f.loc.file)
        if tree is None:
            return None
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            body = node.body
            for i, stmt in enumerate(body[:-1]):
                if (
                    isinstance(stmt, ast.AnnAssign)
                    and stmt.lineno == f.loc.line
                    and isinstance(stmt.target, ast.Name)
                    and stmt.target.id == f.name
                ):
                    nxt = body[i + 1]
                    if (
                        isinstance(nxt, ast.Expr)
                        and isinstance(nxt.value, ast.Constant)
                        and isinstance(nxt.value.value, str)
                    ):
                        return inspect.cleandoc(nxt.value.value)
                    return None
        return None

    def for_flag(self, flag: Flag) -> Optional[str]:
        if flag.loc is None:
            return None
        tree = self._tree(flag.loc.file)
        if tree is None:
            return None
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.lineno == flag.loc.line:
                names = [a.value for a in node.args if isinstance(a, ast.Constant)]
                if not any(s in names for s in flag.option_strings):
                    continue
                for kw in node.keywords:
                    if kw.arg == "help" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                        return inspect.cleandoc(kw.value.value)
        return None

    def for_env(self, var: EnvVar) -> Optional[str]:
        if self._tree(var.loc.file) is None:
            return None
        lines = self._lines.get(var.loc.file, [])
        i = var.loc.line - 1
        if not (0 <= i < len(lines)) or var.name not in lines[i]:
            return None
        out: list[str] = []
        j = i - 1
        while j >= 0 and lines[j].strip().startswith("#"):
            out.append(lines[j].strip().lstrip("#").strip())
            j -= 1
        text = " ".join(reversed([x for x in out if x]))
        return text or None
