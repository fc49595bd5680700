"""The engine options a release registers when its parser is built outside ``vllm
serve``: ``python -m vllm.entrypoints.openai.api_server`` and Dynamo's worker
(``python -m dynamo.vllm``) build ``EngineArgs.add_cli_args`` with no ``serve`` in
``sys.argv``.  In 0.9.0 and 0.9.0.1 ``--model`` is registered only then
(engine/arg_utils.py:451-452 @0.9.0: ``if 'serve' not in sys.argv[1:] and '--help' not
in sys.argv[1:]``), so the release's catalog (read as ``vllm serve MODEL`` builds its
parser, `vcfg.catalog.extract.flags`) lacks it.

The parser is replayed twice, as ``vllm serve MODEL`` and as the api_server module
runs, and the options only the second registers are kept:
``python -m vcfg.catalog.extract.outside_serve VERSION...`` writes the bundled table
(``vcfg/catalog/data/outside-serve-flags.json``; the releases' sources come from the
cache, `vcfg.catalog.extract.source.from_version`).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from vcfg.catalog.model import ConfigClass, Flag

#: ``sys.argv`` of ``python -m vllm.entrypoints.openai.api_server --model M``
API_SERVER_ARGV = ("vllm/entrypoints/openai/api_server.py", "--model", "MODEL")


def outside_serve_flags(src: Any, configs: list[ConfigClass]) -> list[Flag]:
    """The options the api_server module's parser has and ``vllm serve``'s has not."""
    from vcfg.catalog.extract.flags import extract_flags_report

    serve = extract_flags_report(src, configs).flags
    api = extract_flags_report(src, configs, argv=API_SERVER_ARGV).flags
    have = {s for f in serve for s in f.option_strings}
    return [f for f in api if not f.positional and not set(f.option_strings) & have]


def main(versions: list[str]) -> int:
    from vcfg.catalog.extract.configs import extract_configs
    from vcfg.catalog.extract.source import from_version
    from vcfg.records import dump

    out: dict[str, Any] = {
        "generated_by": "python -m vcfg.catalog.extract.outside_serve (vLLM's source, read statically)",
        "releases": {},
    }
    for v in versions:
        src = from_version(v)
        flags = outside_serve_flags(src, extract_configs(src))
        if flags:
            out["releases"][v] = [dump(f) for f in flags]
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
