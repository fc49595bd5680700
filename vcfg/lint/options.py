"""How a rule reads an option of a launch: ``option(lc, dest)``.

One answer for every rule and for the constraints engine: the value vLLM's parser
gives option ``dest`` (the last occurrence wins), else the release's static default,
else `UNKNOWN`; the occurrence the user wrote (``ov``, with its spans), if any; and the
option's display name for messages: as the user wrote it (``-tp``,
``--tensor_parallel_size``), else the catalog's name (``--tensor-parallel-size``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from vcfg.launch.model import ENGINE_KINDS

if TYPE_CHECKING:
    from vcfg.catalog.model import Flag
    from vcfg.launch.args.results import OptionValue
    from vcfg.lint.context import LaunchContext


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"

    def __bool__(self) -> bool:
        return False


#: A value vcfg cannot know.
UNKNOWN: Any = _Unknown()


def is_static_default(value: Any) -> bool:
    """A catalog default that is the real value (not computed later, not suppressed)."""
    if isinstance(value, dict) and any(k in value for k in ("$dynamic", "$config")):
        return False
    return bool(value != "==SUPPRESS==")


class Option:
    """Option ``dest`` of one launch, as `option` resolves it."""

    __slots__ = ("dest", "value", "ov", "flag")

    def __init__(self, dest: str, value: Any, ov: Optional["OptionValue"], flag: Optional["Flag"]) -> None:
        self.dest = dest
        #: the parsed value, else the release's static default, else UNKNOWN
        self.value = value
        #: the occurrence that wins, when the user gave the option
        self.ov = ov
        #: the release's flag for ``dest`` (None: the release has no such option)
        self.flag = flag

    @property
    def exists(self) -> bool:
        """The release has the option."""
        return self.flag is not None

    @property
    def given(self) -> bool:
        """The user wrote the option (on the command line or in a ``--config`` file)."""
        return self.ov is not None

    @property
    def known(self) -> bool:
        return self.value is not UNKNOWN

    @property
    def name(self) -> str:
        """The name to show: as written (``-tp``), else the catalog's long name."""
        if self.ov is not None:
            return self.ov.written_name
        return self.catalog_name

    @property
    def catalog_name(self) -> str:
        """The release's long name of the option (``--tensor-parallel-size``)."""
        if self.flag is not None:
            return self.flag.long_name
        return "--" + self.dest.replace("_", "-")

    def __repr__(self) -> str:
        return f"Option({self.dest!r}, {self.value!r}, given={self.given})"


def option(lc: "LaunchContext", dest: str, *, given: bool = False, absent: Any = UNKNOWN) -> Option:
    """Option ``dest`` of a serve launch: its parsed value if the user gave it, else
    the catalog default (UNKNOWN when it must be ``given``, is computed later, or the
    argv may hide it, and for a launch that is not ``vllm serve``); ``absent`` when the
    release has no such option.  Memoised per launch and lint (``lc.memo``): rules and
    constraints ask for the same few dozen options of each launch hundreds of times."""
    memo = lc.memo.get("option")
    if memo is None:
        memo = lc.memo["option"] = {}
    try:
        key: Any = (dest, given, absent.__class__, absent)
        hit = memo.get(key)
    except TypeError:  # an unhashable ``absent``: not kept
        key = hit = None
    if hit is None:
        hit = _option(lc, dest, given, absent)
        if key is not None:
            memo[key] = hit
    return hit


def _option(lc: "LaunchContext", dest: str, given: bool, absent: Any) -> Option:
    flag = lc.catalog.flag_for_dest(dest)
    if flag is None and absent is not UNKNOWN:
        return Option(dest, absent, None, None)
    pa = lc.args if lc.inv.kind in ENGINE_KINDS else None
    if pa is None:
        return Option(dest, UNKNOWN, None, flag)
    ov = pa.get(dest)
    if ov is not None:
        return Option(dest, ov.value if ov.known else UNKNOWN, ov, flag)
    if flag is None or given or not pa.complete or not is_static_default(flag.default):
        return Option(dest, UNKNOWN, None, flag)
    return Option(dest, flag.default, None, flag)
