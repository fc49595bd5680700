"""The options an entry point other than ``vllm serve`` adds to the release's engine
options (the catalog, read as ``vllm serve MODEL`` builds its parser).

- ``python -m vllm.entrypoints.openai.api_server`` and Dynamo's worker build
  ``EngineArgs.add_cli_args`` with no ``serve`` in ``sys.argv``: in 0.9.0 and 0.9.0.1
  that registers ``--model`` (engine/arg_utils.py:451-452 @0.9.0), which ``vllm serve``
  lacks.  Table: ``vcfg/catalog/data/outside-serve-flags.json``
  (`vcfg.catalog.extract.outside_serve`).
- ``python -m dynamo.vllm`` has Dynamo's own options besides vLLM's (``--connector``,
  ``--disaggregation-mode``, ``--is-prefill-worker``, router options, ...).  Table:
  ``vcfg/catalog/data/dynamo-flags.json`` (`vcfg.catalog.extract.dynamo`, read from the
  ``ai-dynamo`` wheels).  A worker whose image is a Dynamo runtime image with a tag the
  table has (``nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.8.0``) has that release's
  options (`vcfg.launch.release.dynamo_release`); otherwise its release is not known
  and the options of every release in the table are accepted (no release gave one
  option two arities).  From Dynamo 1.0 its own parser takes no abbreviations
  (``allow_abbrev=False``): its options are matched exactly, never by prefix.

- ``vllm serve ... --omni``: vllm-omni installs its own ``vllm`` console script, which
  runs vLLM's CLI unless the word ``--omni`` is in ``sys.argv``
  (vllm_omni/entrypoints/cli/main.py:12 @be81443); with it, vllm-omni's serve parser is
  vLLM's serve options plus its own (vllm_omni/entrypoints/cli/serve.py:73-188).  The
  word names the plugin: nothing else has that option.  Table:
  ``vcfg/catalog/data/omni-flags.json`` (`vcfg.catalog.extract.omni`, read from
  vllm-omni's source); the options of every vllm-omni release in it are accepted.

Read only when a launch is not ``vllm serve``, or gives ``--omni`` (a small JSON file
each, once per run).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from vcfg.catalog.model import Flag, Loc
from vcfg.records import replace

_DATA = Path(__file__).resolve().parents[2] / "catalog" / "data"
DYNAMO_TABLE = _DATA / "dynamo-flags.json"
OMNI_TABLE = _DATA / "omni-flags.json"
OUTSIDE_SERVE_TABLE = _DATA / "outside-serve-flags.json"


@lru_cache(maxsize=None)
def _read(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return {"releases": {}}


def _loc(text: str) -> Loc:
    file, _, line = text.rpartition(":")
    return Loc(file=file, line=int(line) if line.isdigit() else 0)


def _dynamo_flag(o: dict[str, Any]) -> Flag:
    opts = list(o["options"])
    nargs = o.get("nargs", "1")
    takes = nargs != "0"
    return Flag(
        option_strings=opts,
        dest="dynamo:" + opts[0].lstrip("-").replace("-", "_"),
        type=(o.get("type") or "str") if takes else None,
        nargs=None if nargs in ("0", "1") else (int(nargs) if nargs.isdigit() else nargs),
        choices=o.get("choices"),
        default=None if takes else False,
        action="store" if takes else "store_true",
        group="Dynamo",
        loc=_loc(o["loc"]),
    )


def dynamo_options(release: str) -> list[dict[str, Any]]:
    """The table's rows for one Dynamo release (``options_of``: the same as another's)."""
    rels = _read(DYNAMO_TABLE).get("releases", {})
    rel = rels.get(release) or {}
    while "options_of" in rel:
        rel = rels.get(rel["options_of"]) or {}
    return list(rel.get("options", ()))


@lru_cache(maxsize=1)
def dynamo_flags() -> tuple[Flag, ...]:
    """Dynamo's own options of its vLLM worker, over every release of the table."""
    seen: set[str] = set()
    out: list[Flag] = []
    for rel in _read(DYNAMO_TABLE).get("releases", {}).values():
        for o in rel.get("options", ()):
            new = [s for s in o["options"] if s not in seen]  # a release's new alias
            if new:
                seen.update(new)
                out.append(_dynamo_flag({**o, "options": new}))
    return tuple(out)


@lru_cache(maxsize=None)
def dynamo_release_flags(release: str) -> tuple[Flag, ...]:
    """Dynamo's own options of its vLLM worker in one Dynamo release."""
    return tuple(_dynamo_flag(o) for o in dynamo_options(release))


def nearest_dynamo_with(release: str, option: str) -> tuple[str, Loc] | None:
    """The Dynamo release nearest to ``release`` (in the table's order; the later one
    on a tie) whose worker has ``option``, with where it defines it; None if none has."""
    names = list(_read(DYNAMO_TABLE).get("releases", {}))
    if release not in names:
        return None
    at = names.index(release)
    best: tuple[int, int, str, Loc] | None = None
    for k, rel in enumerate(names):
        for o in dynamo_options(rel):
            if option in o["options"]:
                cand = (abs(k - at), -k, rel, _loc(o["loc"]))
                if best is None or cand[:2] < best[:2]:
                    best = cand
                break
    return None if best is None else (best[2], best[3])


def dynamo_vllm(release: str) -> str | None:
    """The vLLM release Dynamo ``release`` ships (its wheel's ``vllm`` extra pin)."""
    rel = _read(DYNAMO_TABLE).get("releases", {}).get(release)
    return rel.get("vllm") if rel else None


@lru_cache(maxsize=None)
def outside_serve_flags(version: str) -> tuple[Flag, ...]:
    """The engine options ``version`` registers outside ``vllm serve`` only."""
    from vcfg.records import build

    rows = _read(OUTSIDE_SERVE_TABLE).get("releases", {}).get(version, ())
    return tuple(build(Flag, r) for r in rows)


def omni_trigger(words: Any) -> bool:
    """Whether argv ``words`` hold the word that makes vllm-omni's console script run its
    own serve parser (a whole word, as its ``in sys.argv`` test reads it)."""
    return any(w.text == "--omni" for w in words)


@lru_cache(maxsize=1)
def omni_flags() -> tuple[Flag, ...]:
    """vllm-omni's own ``vllm serve --omni`` options, over every release of the table."""
    seen: set[str] = set()
    out: list[Flag] = []
    for rel in _read(OMNI_TABLE).get("releases", {}).values():
        for o in rel.get("options", ()):
            new = [s for s in o["options"] if s not in seen]
            if new:
                seen.update(new)
                f = _dynamo_flag({**o, "options": new})
                out.append(replace(f, dest="omni:" + new[0].lstrip("-").replace("-", "_"), group="vllm-omni"))
    return tuple(out)


def extra_flags(
    kind: str, serve: bool, version: str, dynamo: str | None = None, omni: bool = False
) -> tuple[Flag, ...]:
    """What a launch's parser has besides the catalog's options; ``dynamo``: a Dynamo
    worker's release, when its image names one; ``omni``: a ``vllm serve`` that gives
    ``--omni`` (`omni_trigger`), which vllm-omni's parser reads."""
    from vcfg.launch.model import DYNAMO

    if serve:
        return omni_flags() if omni else ()
    out = outside_serve_flags(version)
    if kind == DYNAMO:
        out = out + (dynamo_release_flags(dynamo) if dynamo is not None else dynamo_flags())
    return out
