"""vLLM's argv semantics: the words of a launch -> a typed value per option.

This mirrors, step by step, what ``FlexibleArgumentParser.parse_args`` does to
argv before argparse sees it, and then argparse itself, for the vLLM version a
`Catalog` describes (0.33.0 ``vllm/utils/argparse_utils.py:313-502``; older
layouts noted where they differ):

1. ``vllm serve ... --model M``: moved to the positional slot (>= 0.11.2), an
   error before (0.10.0 ``utils/__init__.py:1703``); ``--served-model-name``
   without a model is an error (>= 0.17.1).
2. ``--config FILE`` (the exact token; ``--config=FILE`` is not expanded):
   the YAML's keys become ``--key value`` before the remaining CLI arguments
   (argparse_utils.py:516-673).  ``false`` values are dropped (for ``vllm
   serve``; from 0.28 ``--no-key`` is tried on the top-level parser, where it
   never exists), dicts become JSON (>= 0.16; ``str(dict)`` before), lists
   ``--key a b``.
3. ``--long_option`` underscores become dashes before the first ``.``
   (argparse_utils.py:379-394).
4. ``-O``: ``-O3``/``-O=3``/``-O 3`` -> ``--optimization-level`` (>= 0.12),
   ``-O.level=`` (<= 0.11.0), ``-O.mode=`` (0.11.2) (argparse_utils.py:395-407).
5. dotted keys ``--x.a.b v`` / ``--x.a+ v1,v2``: merged into one JSON value
   appended at the end (argparse_utils.py:441-500): it replaces a whole JSON
   value given earlier for the same option.
6. argparse: exact option strings, ``--opt=value``, unique-prefix
   abbreviations, nargs, types (int, float, human-readable ints, JSON with
   bare ``80g`` numbers >= 0.20, ...), choices, boolean ``--x``/``--no-x`` and
   0.33's ``--enable-x``/``--disable-x`` inverses; last occurrence wins.

Every value keeps the `Word`s it came from, so a problem or a JSON key can be
pointed at in the script (or in the ``--config`` YAML file).

The package: `argv` (tokens and steps 1-5), `parser` (argparse, step 6), `converters`
(vLLM's value converters), `jsonpos` (JSON with positions), `results` (what a replay
returns), `behaviour` (which release changed what), `lax` (how pydantic judges a JSON
value against a config field).
"""

from vcfg.launch.args.behaviour import since, version_tuple
from vcfg.launch.args.converters import (
    expand_json_numbers,
    human_readable_int,
    human_readable_int_or_auto,
)
from vcfg.launch.args.jsonpos import JsonDoc, JsonLoc, parse_json_positions
from vcfg.launch.args.parser import parse_args, parse_invocation
from vcfg.launch.args.results import ArgProblem, OptionValue, ParsedArgs

__all__ = [
    "ArgProblem",
    "JsonDoc",
    "JsonLoc",
    "OptionValue",
    "ParsedArgs",
    "expand_json_numbers",
    "human_readable_int",
    "human_readable_int_or_auto",
    "parse_args",
    "parse_invocation",
    "parse_json_positions",
    "since",
    "version_tuple",
]
