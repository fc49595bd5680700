"""Would vLLM raise on this value of an environment variable?

vLLM parses a variable only when something reads it, and reads them all at the end of
engine start-up (``enable_envs_cache``, 0.33.0 envs.py:2310; research section 3.4): a
malformed value aborts the server after the model has loaded.  `check_env_value`
answers the question up front from the catalog's `EnvVar.parse`, using the same
Python conversions vLLM applies (``int``, ``float``, ``json.loads``), never vLLM itself.
"""

from __future__ import annotations

import json
from typing import Optional

from vcfg.catalog.model import EnvVar
from vcfg.regex import lazy

# A scheme followed by "://": what get_vllm_port's URL parser reports as a scheme
# (0.33.0 envs.py:518-545, urllib3.util.parse_url; 0.10.0 envs.py:168 urlparse).
_URI = lazy(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_MAX_SHOWN = 60
_MAX_CHOICES = 12


def check_env_value(var: EnvVar, value: str) -> Optional[str]:
    """A short lowercase reason why vLLM would raise on ``value``, or None if it would not.

    The parses it never judges (``str``, ``bool_word``, ``list``, ``other``) give None.
    """
    parse = var.parse
    if parse == "int":
        return None if _is_int(value) else f"{_q(value)} is not an integer"
    if parse == "bool_int":
        if _is_int(value):
            return None
        return f"{_q(value)} is not an integer (read as bool(int(value)))"
    if parse == "float":
        try:
            float(value)
        except ValueError:
            return f"{_q(value)} is not a number"
        return None
    if parse == "port":
        if _is_int(value):
            return None
        if _URI.match(value.strip()):
            return (
                f"{_q(value)} looks like a URI, not a port number "
                "(often a kubernetes service link named like the variable)"
            )
        return f"{_q(value)} is not an integer port"
    if parse == "choices":
        return _check_choice(var, value, value)
    if parse == "set_choices":
        # env_list_with_choices (0.33.0 envs.py:446): split on ",", strip, drop empties
        for item in (v.strip() for v in value.split(",")):
            if item:
                problem = _check_choice(var, item, value)
                if problem:
                    return problem
        return None
    if parse == "json":
        return _check_json(value)
    return None


def _is_int(value: str) -> bool:
    try:
        int(value)
    except ValueError:
        return False
    return True


def _q(value: str) -> str:
    shown = value if len(value) <= _MAX_SHOWN else value[: _MAX_SHOWN - 3] + "..."
    return "'" + shown.replace("\n", "\\n") + "'"


def _check_choice(var: EnvVar, item: str, whole: str) -> Optional[str]:
    if var.choices is None:  # computed choices vcfg could not resolve: do not judge
        return None
    if var.case_sensitive:
        if item in var.choices:
            return None
    elif item.lower() in {c.lower() for c in var.choices}:
        return None
    where = f"{_q(item)} in {_q(whole)}" if item != whole else _q(item)
    shown = ", ".join(var.choices[:_MAX_CHOICES])
    if len(var.choices) > _MAX_CHOICES:
        shown += f", ... ({len(var.choices)} in all)"
    message = f"{where} is not one of: {shown}"
    if var.case_sensitive and item.lower() in {c.lower() for c in var.choices}:
        message += " (matching is case-sensitive)"
    return message


def _check_json(value: str) -> Optional[str]:
    try:
        json.loads(value)
    except ValueError as e:
        # maybe_convert_json_str_or_file (0.33.0 envs.py:366) also accepts a path to a
        # JSON file; whether it exists is only known on the target machine.
        if value.startswith(("/", "./", "../", "~")) or value.endswith(".json"):
            return None
        return f"{_q(value)} is not valid json ({str(e).split(':')[0].lower()})"
    return None
