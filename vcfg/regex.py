"""Regular expressions compiled when first used.

Compiling a pattern costs 50-600 us (``re`` parses it in Python); a module-level
``re.compile`` pays that at import, for every pattern, on every start.  A cold
``vcfg lint`` of one script imported about 45 patterns and used half of them
(docs/performance.md).  ``lazy(...)`` defers the compile to the first use; from
then on the pattern's methods are plain attributes of the object, as fast as the
compiled pattern's own.
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast

#: the attributes of a compiled pattern, bound once it is compiled
_ATTRS = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split", "scanner")


class _Lazy:
    def __init__(self, pattern: Any, flags: int) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        # called only for attributes not yet bound, so once per method at most
        compiled = re.compile(*self._args)
        d = self.__dict__
        d["compiled"] = compiled
        for attr in _ATTRS:
            d[attr] = getattr(compiled, attr)
        for attr in ("pattern", "flags", "groups", "groupindex"):
            d[attr] = getattr(compiled, attr)
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._args[0]!r})"


def lazy(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """``re.compile(pattern, flags)``, compiled when first used."""
    return cast("re.Pattern[AnyStr]", _Lazy(pattern, flags))
