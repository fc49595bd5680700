"""The words in a schema (``markdownDescription``, ``deprecationMessage``),
composed from catalog facts only (type, default, choices, the config field behind a
flag, where vLLM defines it, the releases it exists in).  vLLM's own help text is
added only when the caller passes one, read at run time from the user's vLLM."""

from __future__ import annotations

import json
from typing import Any, Optional

SUPPRESS = "==SUPPRESS=="
_MAX_VALUE = 70
_MAX_CHOICES = 24


def is_plain(value: Any) -> bool:
    """A default that is a real JSON value (not run-time, not a config instance)."""
    if isinstance(value, dict) and any(k in value for k in ("$dynamic", "$config", "$repr")):
        return False
    if value == SUPPRESS:
        return False
    if isinstance(value, dict):
        return all(is_plain(v) for v in value.values())
    if isinstance(value, list):
        return all(is_plain(v) for v in value)
    return True


def code(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if len(text) > _MAX_VALUE:
        text = text[: _MAX_VALUE - 3] + "..."
    tick = "``" if "`" in text else "`"
    return f"{tick}{text}{tick}"


def default_words(value: Any) -> str:
    if isinstance(value, dict) and "$dynamic" in value:
        return "set at run time"
    if isinstance(value, dict) and "$config" in value:
        return f"`{value['$config']}()`"
    if isinstance(value, dict) and "$repr" in value:
        return code(value["$repr"])
    if value == SUPPRESS:
        return "not set"
    return code(value)


def choices_words(choices: list[Any]) -> str:
    shown = [code(c) for c in choices[:_MAX_CHOICES]]
    more = len(choices) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def compose(lines: list[Optional[str]], help_text: Optional[str] = None) -> str:
    """Markdown paragraphs, the user's vLLM help text (if any) first."""
    parts = [help_text.strip()] if help_text and help_text.strip() else []
    parts += [ln for ln in lines if ln]
    return "\n\n".join(parts)
