"""vLLM version numbers and version ranges, without a dependency.

A small subset of PEP 440, enough for vLLM's releases and the ranges the knowledge
packs use:

* versions: ``0.33.0``, ``0.10`` (= ``0.10.0``), ``0.11.0rc1``, ``0.9.2.post1``,
  ``0.12.0.dev3``; a local part (``+cu130``) is ignored, a leading ``v`` too;
* ranges: comma-separated specifiers that must all hold, each one of ``>=``,
  ``>``, ``<=``, ``<``, ``==``, ``!=`` and a version, ``==0.10.*`` for a prefix;
  ``""`` and ``"*"`` mean every version.

Unlike PEP 440, a range does not exclude pre-releases: ``<0.24`` contains
``0.24.0rc1``, which sorts before ``0.24.0``.  vLLM's pre-releases are not
bundled, so the simpler rule is enough.
"""

from __future__ import annotations

import re
from functools import lru_cache, total_ordering
from typing import Callable

from vcfg.errors import VcfgError
from vcfg.records import record

_VERSION_PATTERN = r"""^\s*v?
    (?P<release>\d+(?:\.\d+)*)
    (?:[-_.]?(?P<pre>a|b|rc|alpha|beta|c)[-_.]?(?P<pre_n>\d*))?
    (?:[-_.]?post[-_.]?(?P<post>\d*))?
    (?:[-_.]?dev[-_.]?(?P<dev>\d*))?
    (?:\+[0-9a-z.]+)?
    \s*$"""
_PRE_RANK = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2}


@total_ordering
@record(frozen=True)
class Version:
    release: tuple[int, ...]
    pre: tuple[int, int] | None = None  # (rank: a=0 b=1 rc=2, number)
    post: int | None = None
    dev: int | None = None
    text: str = ""

    @property
    def _key(self) -> tuple:  # type: ignore[type-arg]
        # computed once: versions are compared in every rule's range check and every
        # walk over the release history
        key = self.__dict__.get("_sort_key")
        if key is None:
            key = self.__dict__["_sort_key"] = self._compute_key()
        return key

    def _compute_key(self) -> tuple:  # type: ignore[type-arg]
        release = self.release
        while len(release) > 1 and release[-1] == 0:
            release = release[:-1]  # 0.10 == 0.10.0
        if self.pre is not None:
            pre: tuple[int, int] = self.pre
        elif self.dev is not None and self.post is None:
            pre = (-1, 0)  # 1.0.dev1 sorts before 1.0a1
        else:
            pre = (3, 0)  # a final release sorts after its rc
        post = -1 if self.post is None else self.post
        dev = (1, 0) if self.dev is None else (0, self.dev)
        return (release, pre, post, dev)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Version) and self._key == other._key

    def __lt__(self, other: "Version") -> bool:
        return self._key < other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __str__(self) -> str:
        return self.text or ".".join(map(str, self.release))


@lru_cache(maxsize=4096)  # a lint run asks for the same few versions many times
def parse_version(text: str) -> Version:
    """``"0.33.0"`` -> Version; a VcfgError for anything else."""
    if isinstance(text, str) and 0 < len(text) <= 100 and text.isascii():
        parts = text.split(".")
        if all(p.isdigit() for p in parts):  # a plain release ("0.33.0"): no pattern needed
            return Version(release=tuple(int(p) for p in parts), text=text)
        # a plain post-release ("0.8.5.post1", a bundled release): no pattern either
        # (compiling it is 3.3M instructions, about 1% of a cold lint, which dates
        # removals against every bundled release)
        last = parts[-1]
        if len(parts) > 1 and last.startswith("post") and last[4:].isdigit() and all(p.isdigit() for p in parts[:-1]):
            return Version(release=tuple(int(p) for p in parts[:-1]), post=int(last[4:]), text=text)
    return _pep440(text)


def _pep440(text: str) -> Version:
    """`parse_version` by the full pattern (PEP 440's public version scheme)."""
    m = (
        re.match(_VERSION_PATTERN, text, re.VERBOSE | re.IGNORECASE)
        if isinstance(text, str) and len(text) <= 100
        else None
    )
    if m is None:
        shown = text if not isinstance(text, str) or len(text) <= 60 else text[:40] + "..."
        raise VcfgError(f"{shown!r} is not a version number", hint="e.g. 0.33.0")
    pre = None
    if m.group("pre"):
        pre = (_PRE_RANK[m.group("pre").lower()], int(m.group("pre_n") or 0))
    post = int(m.group("post") or 0) if m.group("post") is not None else None
    dev = int(m.group("dev") or 0) if m.group("dev") is not None else None
    release = tuple(int(p) for p in m.group("release").split("."))
    return Version(release=release, pre=pre, post=post, dev=dev, text=text.strip())


def is_version(text: str) -> bool:
    try:
        parse_version(text)
    except VcfgError:
        return False
    return True


_OPS: dict[str, Callable[[Version, Version], bool]] = {
    ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    "<": lambda a, b: a < b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}
_SPEC_RE = re.compile(r"^\s*(>=|<=|==|!=|>|<)\s*([^\s,]+)\s*$")


@record(frozen=True)
class _Spec:
    op: str
    version: Version
    prefix: tuple[int, ...] | None = None  # for ==X.Y.*

    def holds(self, v: Version) -> bool:
        if self.prefix is not None:
            return v.release[: len(self.prefix)] == self.prefix and v.pre is None and v.dev is None
        return _OPS[self.op](v, self.version)


@record(frozen=True)
class VersionRange:
    """A set of versions, e.g. ``>=0.10,<0.24``.  ``"0.33.0" in rng`` works."""

    text: str
    specs: tuple[_Spec, ...]

    def contains(self, version: "str | Version") -> bool:
        v = parse_version(version) if isinstance(version, str) else version
        return all(s.holds(v) for s in self.specs)

    def __contains__(self, version: "str | Version") -> bool:
        return self.contains(version)

    def bounds(self) -> list[Version]:
        """The versions the specifiers name (useful to probe two ranges for overlap)."""
        return [s.version for s in self.specs]

    def __str__(self) -> str:
        return self.text


@lru_cache(maxsize=4096)
def parse_range(text: str) -> VersionRange:
    """``">=0.10,<0.24"`` -> VersionRange; a VcfgError naming the bad part otherwise."""
    if not isinstance(text, str):
        raise VcfgError(f"{text!r} is not a version range", hint='e.g. ">=0.10,<0.24"')
    stripped = text.strip()
    if stripped in ("", "*"):
        return VersionRange(text=stripped, specs=())
    specs: list[_Spec] = []
    for part in stripped.split(","):
        m = _SPEC_RE.match(part)
        if m is None:
            raise VcfgError(
                f"{part.strip()!r} in version range {text!r} is not a comparison",
                hint='use >=, >, <=, <, ==, != and a version, joined by commas: ">=0.10,<0.24"',
            )
        op, ver = m.group(1), m.group(2)
        if ver.endswith(".*"):
            if op != "==":
                raise VcfgError(f"{part.strip()!r}: a '.*' prefix needs '=='")
            base = parse_version(ver[:-2])
            specs.append(_Spec(op, base, prefix=base.release))
            continue
        try:
            specs.append(_Spec(op, parse_version(ver)))
        except VcfgError as e:
            raise VcfgError(f"{ver!r} in version range {text!r} is not a version number") from e
    return VersionRange(text=stripped, specs=tuple(specs))


def compare(a: str, b: str) -> int:
    """-1, 0 or 1 as version ``a`` sorts before, equal to or after ``b``."""
    va, vb = parse_version(a), parse_version(b)
    return (va > vb) - (va < vb)
