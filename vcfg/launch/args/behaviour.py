"""Which vLLM release changed how its parser treats argv: the replay
(`vcfg.launch.args.parser`) and the JSON rules ask `since` for the first release with a
behaviour.  The releases and their vLLM sources are data: the ``[[behaviour]]`` entries
of the bundled knowledge pack ``vcfg/catalog/data/knowledge/behaviour.toml``."""

from __future__ import annotations

from functools import lru_cache


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


@lru_cache(maxsize=None)
def since(name: str) -> tuple[int, int, int]:
    """The first release with behaviour ``name``, as `version_tuple` gives it (a name
    the pack lacks is a KeyError: a bug, caught by the tests)."""
    from vcfg.catalog.knowledge import behaviour_since

    return version_tuple(behaviour_since(name))
