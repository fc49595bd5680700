"""Which vLLM release changed how its parser treats argv: the versions the replay
(`vcfg.launch.args.parser`) and the JSON rules branch on, each with its vLLM source."""

from __future__ import annotations

# --------------------------------------------------------------------------- versions

def version_tuple(v: str) -> tuple[int, int, int]:
    """``"0.11.2rc1"`` -> (0, 11, 2); unknown text -> a very new version."""
    from vcfg.catalog.versions import parse_version
    from vcfg.errors import VcfgError

    try:
        release = parse_version(v or "").release
    except VcfgError:
        return (999, 0, 0)
    a, b, c = (release + (0, 0, 0))[:3]
    return (a, b, c)


#: serve --model moved to the positional slot (0.11.2 argparse_utils.py:186-216);
#: before, a hard error (0.10.0 utils/__init__.py:1703-1710).
V_MODEL_MOVE = (0, 11, 2)
#: --served-model-name without a positional model is an error (0.17.1).
V_SERVED_NAME_CHECK = (0, 17, 1)
#: -O<n> -> --optimization-level (0.12.0 argparse_utils.py:247-259).
V_OPT_LEVEL = (0, 12, 0)
#: -O<n> -> -O.mode=<n> (0.11.2 argparse_utils.py:255-267); before: -O.level=<n>.
V_O_MODE = (0, 11, 2)
#: duplicate plain flags warned about (0.12.0, regular_args_seen).
V_DUP_WARN = (0, 12, 0)
#: dotted values fall back to human_readable_int (0.20.0 argparse_utils.py:404-412).
V_DOTTED_HRI = (0, 20, 0)
#: bare 80g-style numbers inside JSON config values (0.20.0 arg_utils.py:330).
V_JSON_HRI = (0, 20, 0)
#: YAML dict values passed as JSON (0.16.0); before as str(dict), not JSON.
V_YAML_DICT_JSON = (0, 16, 0)
#: YAML list values passed as separate words (0.10.2); before as str(list).
V_YAML_LIST = (0, 10, 2)
#: YAML false -> --no-<key> when this parser has it (0.28.0 argparse_utils.py:573-577).
V_YAML_NO_KEY = (0, 28, 0)
