"""Knowledge packs: reviewed facts about vLLM that its source does not state.

The catalogs (``vcfg.catalog.model``) are generated from vLLM's source.  Some facts
a linter needs are not in that source, or only as behaviour spread over several
files: which release removed a flag and what replaced it, which ``kv_role`` a
connector expects on a decode instance, which extra-config keys must be JSON
strings, which ports a connector binds, which environment variables a plugin
reads.  They live in small TOML files, each entry with its sources and the vLLM
versions it holds for.  The format is documented in ``docs/knowledge-packs.md``.

``load_packs()`` reads the bundled packs (``data/knowledge/*.toml``) and any
user directories; later packs take precedence, so a user pack can correct a
bundled entry.  Nothing here imports vLLM.
"""

from __future__ import annotations

import json
import os
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Literal, Optional, Sequence

from vcfg.catalog.releases import GENERATED_BY
from vcfg.catalog.versions import VersionRange, is_version, parse_range, parse_version
from vcfg.errors import VcfgError
from vcfg.records import RecordError, build, dump, field, load, record, replace

BUNDLED_DIR = Path(__file__).parent / "data" / "knowledge"
#: The bundled packs, checked, in the form the linter reads (see `bundled_json`).
BUNDLED_JSON = Path(__file__).parent / "data" / "knowledge.json"

KVRole = Literal["kv_producer", "kv_consumer", "kv_both"]
JsonType = Literal["string", "integer", "number", "boolean", "array", "object", "null"]
RemovedKind = Literal["flag", "env", "config_field", "connector"]
#: how a removed name is migrated (see `RemovedEntry.migrate`)
Migration = Literal["rename", "drop"]

#: Accepted forms of a source citation (see docs/knowledge-packs.md); compiled when a
#: pack is checked, which the linter's bundled packs never need.
SOURCE_FORMS: dict[str, str] = {
    # a file (and line) in a vLLM release: vllm@0.20.0:vllm/envs.py:120
    "vllm": r"^vllm@(?P<version>[^:\s]+):(?P<path>vllm/[\w./-]+\.py)(?::(?P<line>\d+)(?:-\d+)?)?$",
    # an issue or pull request: vllm-project/vllm#23283
    "issue": r"^[\w.-]+/[\w.-]+#\d+$",
    # a file in another repository, optionally at a commit: owner/repo:path[@commit][:line]
    "repo_file": r"^[\w.-]+/[\w.-]+:[\w./-]+(?:@[0-9a-f]{7,40})?(?::\d+(?:-\d+)?)?$",
    # a web page
    "url": r"^https?://\S+$",
    # vcfg's own research notes: research:vllm-config-surface.md#6.3
    "research": r"^research:[\w.-]+\.md(?:#[\w.-]+)?$",
}


def source_form(source: str) -> Optional[str]:
    """Which citation form ``source`` is written in, or None."""
    for name, pattern in SOURCE_FORMS.items():
        m = re.match(pattern, source)
        if m and (name != "vllm" or is_version(m.group("version"))):
            return name
    return None


# --------------------------------------------------------------------------- models


class _Model:
    """Pack entries are frozen records (``vcfg.records``), checked when loaded."""


def _check_range(value: str) -> str:
    try:
        parse_range(value)
    except VcfgError as e:
        raise ValueError(str(e)) from None
    return value


def _check_version(value: Optional[str]) -> Optional[str]:
    if value is not None and not is_version(value):
        raise ValueError(f"{value!r} is not a version number (e.g. 0.33.0)")
    return value


def _check_sources(values: list[str]) -> list[str]:
    if not values:
        raise ValueError("at least one source is required")
    bad = [s for s in values if source_form(s) is None]
    if bad:
        raise ValueError(
            f"unrecognised source {bad[0]!r}: use vllm@<version>:<path>[:line], "
            "<owner>/<repo>#<n>, <owner>/<repo>:<path>, a URL, or research:<file>.md#<section>"
        )
    return values


@record(frozen=True)
class _Versioned(_Model):
    """An entry that holds for a range of vLLM versions, with its sources."""

    versions: str = field(check=_check_range, description='the vLLM versions it holds for, e.g. ">=0.10,<0.24"')
    sources: list[str] = field(check=_check_sources)

    @property
    def range(self) -> VersionRange:
        return parse_range(self.versions)

    def holds_for(self, version: Optional[str]) -> bool:
        return version is None or parse_version(version) in self.range


@record(frozen=True)
class _OptionallyVersioned(_Model):
    """A part of a larger entry: narrower versions and extra sources are optional."""

    versions: Optional[str] = field(default=None, check=lambda v: None if v is None else _check_range(v))
    sources: list[str] = field(default_factory=list, check=lambda v: _check_sources(v) if v else v)

    def holds_for(self, version: Optional[str]) -> bool:
        return version is None or self.versions is None or parse_version(version) in parse_range(self.versions)


@record(frozen=True, kw_only=True)
class RemovedEntry(_Versioned):
    """A flag, environment variable, config field or connector that vLLM removed."""

    kind: RemovedKind
    #: ``--flag``, ``VLLM_VAR``, ``Class.field`` or a connector name
    name: str
    aliases: list[str] = field(default_factory=list, description="spellings removed with it")
    #: the first checked release without it; ``versions`` must contain it
    removed_in: str = field(check=_check_version)
    #: the last checked release that still had it; None if no checked release had it
    last_present: Optional[str] = field(default=None, check=_check_version)
    deprecated_in: Optional[str] = field(default=None, check=_check_version)
    replacement: list[str] = field(default_factory=list)
    note: str = field(min_length=1, description="one line, in vcfg's words")
    #: how ``name`` (not its aliases) is migrated without a person: ``rename`` when the
    #: first replacement takes the same value and means the same (a variable that
    #: became an option moves into the launches that read it), ``drop`` when the
    #: release reads nothing of it, so removing it changes nothing vLLM does; unset:
    #: by hand (the note says how)
    migrate: Optional[Migration] = None
    #: when there is no replacement: what could take its place (a removed connector's
    #: in-tree alternatives), each a name the newer releases have; ``sources`` cite them
    alternatives: list[str] = field(default_factory=list)

    def __validate__(self) -> None:
        if self.migrate == "rename" and not self.replacement:
            raise ValueError('migrate = "rename" needs a replacement')
        rng = parse_range(self.versions)
        if parse_version(self.removed_in) not in rng:
            raise ValueError(f"versions {self.versions!r} must contain removed_in {self.removed_in}")
        if self.last_present is not None:
            if parse_version(self.last_present) >= parse_version(self.removed_in):
                raise ValueError("last_present must be older than removed_in")
            if parse_version(self.last_present) in rng:
                raise ValueError(f"versions {self.versions!r} must not contain last_present {self.last_present}")

    def names(self) -> list[str]:
        return [self.name, *self.aliases]

    def replacement_text(self) -> str:
        """The replacements for a message: ```--a` or `b.c```."""
        return " or ".join(f"`{r}`" for r in self.replacement)

    def sentences(self) -> str:
        """The note and what to use instead, as sentences (schema deprecation messages)."""
        text = self.note.rstrip(".") + "."
        return text + (f" Use instead: {', '.join(self.replacement)}." if self.replacement else "")


@record(frozen=True)
class RoleFacts(_OptionallyVersioned):
    """How a connector uses ``kv_role``."""

    #: roles that work on the instance the proxy sends prefills to
    prefill: list[KVRole] = field(default_factory=list)
    #: roles that work on a decode instance
    decode: list[KVRole] = field(default_factory=list)
    #: False when the connector never looks at kv_role (direction comes per request)
    reads_role: bool = True
    #: roles the connector accepts but warns about
    deprecated: list[KVRole] = field(default_factory=list)
    note: str = ""


@record(frozen=True, kw_only=True)
class KeyFact(_OptionallyVersioned):
    """A ``kv_connector_extra_config`` key, beyond what the source scan finds."""

    name: str
    required: bool = False
    #: when the key is needed only under a condition (our words)
    required_when: Optional[str] = None
    #: JSON types that work; e.g. ["string"] for a value vLLM concatenates to a str
    json_types: list[JsonType] = field(default_factory=list)
    choices: Optional[list[Any]] = None
    case_sensitive: bool = True
    #: two instances on one host must not share the value
    unique_per_host: bool = False
    #: the vLLM option (its dest, e.g. "port") whose value this key must equal on the
    #: same instance
    equals_option: Optional[str] = None
    note: str = ""


PortOffset = Literal[
    "none",  # the base port itself, once per instance
    "world_rank",  # base + rank for every worker of the instance (TP*PP ports)
    "dp_rank",  # base + data-parallel rank
    "dp_index",  # base + data-parallel index
    "dp_rank_times_tp_plus_tp_rank",  # base + dp_rank*TP + tp_rank, every TP worker
    "dp_index_times_tp_plus_tp_rank",  # base + dp_index*TP + tp_rank, every TP worker
]


@record(frozen=True, kw_only=True)
class PortFact(_OptionallyVersioned):
    """A port a connector binds."""

    name: str
    #: where the base port comes from: ``config:kv_port``, ``env:VLLM_X``, ``extra:key``
    base: str = field(pattern=r"^(config|env|extra):[A-Za-z_][\w.]*$")
    default: Optional[int] = None
    offset: PortOffset = "none"
    #: which address it binds: e.g. "0.0.0.0", "env:VLLM_HOST_IP", "env:VLLM_NIXL_SIDE_CHANNEL_HOST"
    host: Optional[str] = None
    #: the connector connects to this port (a server elsewhere); it does not bind it
    connects_only: bool = False
    #: roles whose instances do not bind it
    unbound_roles: list[KVRole] = field(default_factory=list)
    #: an extra-config key whose presence means the port is not bound
    unbound_with_key: Optional[str] = None
    note: str = ""


@record(frozen=True)
class ForwardedKeys(_OptionallyVersioned):
    """Extra-config keys a connector hands to code outside vLLM's source (an external
    package, a module the user names), which vcfg therefore cannot judge."""

    #: the keys starting with it; every key when absent
    prefix: Optional[str] = None
    #: only while this extra-config key has a true value
    when_key: Optional[str] = None
    #: not while this extra-config key has a true value
    unless_key: Optional[str] = None
    note: str = ""

    def covers(self, key: str, extra: dict[str, Any]) -> bool:
        """Whether ``key`` of the extra config ``extra`` is read outside vLLM."""
        if self.when_key is not None and not extra.get(self.when_key):
            return False
        if self.unless_key is not None and extra.get(self.unless_key):
            return False
        return self.prefix is None or key.startswith(self.prefix)


@record(frozen=True)
class PythonPackage(_Model):
    #: the name a connector imports
    import_name: str
    #: the distribution to install, when it differs or is worth naming
    pip: Optional[str] = None
    note: str = ""


@record(frozen=True)
class ConnectorFacts(_Versioned):
    """Facts about one KV connector (in-tree or from a plugin)."""

    name: str
    #: other names registered for the same class
    aliases: list[str] = field(default_factory=list)
    #: the plugin that registers it; None for vLLM's own connectors
    plugin: Optional[str] = None
    roles: list[RoleFacts] = field(default_factory=list)
    keys: list[KeyFact] = field(default_factory=list)
    ports: list[PortFact] = field(default_factory=list)
    #: what the proxy in front must do (our words)
    proxy: Optional[str] = None
    #: proxy scripts known to work with it (file names)
    proxy_scripts: list[str] = field(default_factory=list)
    #: proxy scripts known not to work with it
    incompatible_proxies: list[str] = field(default_factory=list)
    python_packages: list[PythonPackage] = field(default_factory=list)
    #: each inner list: at least one of these environment variables must be set
    env_any_of: list[list[str]] = field(default_factory=list)
    #: vLLM options (dests) that its prefill and decode instances must set alike, beyond
    #: those every disaggregating connector needs alike (model, block size, KV dtype)
    same_across_pd: list[str] = field(default_factory=list)
    #: KVTransferConfig fields it reads beyond kv_connector and kv_role, where the
    #: config has fields only some connectors read (kv_buffer_size)
    reads_fields: list[str] = field(default_factory=list)
    #: extra-config keys read outside vLLM's source
    forwarded: list[ForwardedKeys] = field(default_factory=list)
    #: the extra-config key listing child KV transfer configs, each built like a
    #: top-level one when the connector is (MultiConnector's "connectors")
    child_configs: Optional[str] = None
    note: str = ""

    def key(self, name: str) -> Optional[KeyFact]:
        return next((k for k in self.keys if k.name == name), None)

    def for_version(self, version: Optional[str]) -> "ConnectorFacts":
        """A copy holding only the roles, keys, ports and forwarded keys that hold for ``version``."""
        return replace(
            self,
            roles=[r for r in self.roles if r.holds_for(version)],
            keys=[k for k in self.keys if k.holds_for(version)],
            ports=[p for p in self.ports if p.holds_for(version)],
            forwarded=[f for f in self.forwarded if f.holds_for(version)],
        )


EnvType = Literal["bool", "int", "float", "str", "path", "list"]


@record(frozen=True, kw_only=True)
class PluginEnv(_Model):
    """An environment variable a plugin reads."""

    name: str
    type: EnvType
    #: for bool: the (lower-cased) values read as true; anything else is false
    truthy: Optional[list[str]] = None
    #: the value in effect when unset (None: unset means "not used")
    default: Any = None
    meaning: str = field(min_length=1, description="one line, in vcfg's words")
    sources: list[str] = field(default_factory=list, check=_check_sources)


@record(frozen=True)
class Plugin(_Versioned):
    """A vLLM plugin package: how it is enabled and what it reads."""

    name: str
    #: the Python package it installs (``import`` name)
    package: str
    pip: Optional[str] = None
    #: entry-point group -> entry name, e.g. {"vllm.general_plugins" = "fl"}
    entry_points: dict[str, str] = field(default_factory=dict)
    env: list[PluginEnv] = field(default_factory=list)
    #: the connectors it registers (their facts are [[connector]] entries with plugin = name)
    connectors: list[str] = field(default_factory=list)
    #: option dest -> the names it registers for that option (``quantization =
    #: ["ascend"]``); VC014 accepts them, since vcfg cannot tell the plugin is absent
    names: dict[str, list[str]] = field(default_factory=dict)
    note: str = ""

    @property
    def plugin_names(self) -> list[str]:
        """The names ``VLLM_PLUGINS`` must list for this plugin to load."""
        return sorted(set(self.entry_points.values()))

    def env_var(self, name: str) -> Optional[PluginEnv]:
        return next((e for e in self.env if e.name == name), None)


@record(frozen=True, kw_only=True)
class Subcommand(_OptionallyVersioned):
    """A ``vllm`` subcommand (``serve``, ``bench``) or a ``vllm bench`` one (``bench serve``)."""

    name: str = field(min_length=1)


@record(frozen=True, kw_only=True)
class Behaviour(_Model):
    """A change in how vLLM treats argv or a value, from the release that made it: the
    replay of vLLM's parser (`vcfg.launch.args`) branches on it (`behaviour_since`)."""

    name: str = field(min_length=1)
    since: str = field(check=_check_version, description="the first release with the behaviour")
    note: str = ""
    sources: list[str] = field(check=_check_sources)


@record(frozen=True)
class Setting(_Versioned):
    """A name or value of vLLM's that a rule looks for (the variable and the text a check
    reads, the options that exempt a launch): ``value`` or ``values``."""

    name: str = field(min_length=1)
    value: str = ""
    values: list[str] = field(default_factory=list)
    note: str = ""


@record(frozen=True)
class PackMeta(_Model):
    name: str
    description: str = ""


@record(frozen=True)
class PackFile(_Model):
    """One TOML file."""

    pack: Optional[PackMeta] = None
    removed: list[RemovedEntry] = field(default_factory=list)
    connector: list[ConnectorFacts] = field(default_factory=list)
    plugin: list[Plugin] = field(default_factory=list)
    subcommand: list[Subcommand] = field(default_factory=list)
    behaviour: list[Behaviour] = field(default_factory=list)
    setting: list[Setting] = field(default_factory=list)


# --------------------------------------------------------------------------- loading


@record(frozen=True)
class Pack:
    path: Path
    bundled: bool
    content: PackFile

    @property
    def label(self) -> str:
        return self.path.name if self.bundled else str(self.path)


def _error_place(raw: Any, loc: Sequence[Any]) -> str:
    """``connector[0] ('A').keys[1] ('x').json_types[0]`` for an error located at
    ('connector', 0, 'keys', 1, 'json_types', 0): names help find the entry."""
    out = ""
    node: Any = raw
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                node = None
            if isinstance(node, dict) and isinstance(node.get("name"), str):
                out += f" ({node['name']!r})"
        else:
            out += f".{part}" if out else str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return out or "top level"


def read_pack(path: Path, *, bundled: bool = False) -> Pack:
    """Parse and validate one pack file; every problem is a VcfgError naming the file."""
    label = path.name if bundled else str(path)
    try:
        from vcfg.fileio import MAX_BYTES, read_regular

        data = read_regular(str(path))
        if len(data) > MAX_BYTES:
            raise VcfgError(f"{label}: knowledge pack larger than {MAX_BYTES >> 20} MiB, not read")
    except OSError as e:
        raise VcfgError(f"{label}: cannot read knowledge pack ({e.strerror or e})") from e
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise VcfgError(f"{label}: knowledge pack is not UTF-8 text") from e
    except tomllib.TOMLDecodeError as e:
        raise VcfgError(f"{label}: not valid TOML: {e}") from e
    except RecursionError:
        raise VcfgError(f"{label}: not valid TOML: nested too deeply") from None
    except ValueError:  # an integer of more than 4,300 digits
        raise VcfgError(f"{label}: not valid TOML: a number too long to read") from None
    try:
        content = load(PackFile, raw)
    except RecordError as e:
        where = _error_place(raw, e.loc)
        raise VcfgError(
            f"{label}: {where}: {e.msg}",
            hint="see docs/knowledge-packs.md for the pack format",
        ) from None
    _check_duplicates(label, content)
    return Pack(path=path, bundled=bundled, content=content)


def _overlap(a: Optional[str], b: Optional[str]) -> bool:
    """Whether two ranges share a version, probed at the versions either one names
    (and a spread of releases), which is exact for the ``>=``/``<`` ranges packs use."""
    ra, rb = parse_range(a or ""), parse_range(b or "")
    probes = set(ra.bounds()) | set(rb.bounds())
    probes |= {parse_version(f"0.{m}.{p}") for m in range(0, 60) for p in (0, 9)}
    probes |= {parse_version(f"{x}.0") for x in range(1, 4)}
    return any(v in ra and v in rb for v in probes)


def _check_duplicates(label: str, content: PackFile) -> None:
    seen: dict[tuple[str, str], list[str]] = {}
    for e in content.removed:
        for n in e.names():
            seen.setdefault((e.kind, n), []).append(e.versions)
    for c in content.connector:
        for n in (c.name, *c.aliases):
            seen.setdefault(("connector facts", n), []).append(c.versions)
    for p in content.plugin:
        seen.setdefault(("plugin", p.name), []).append(p.versions)
    for s in content.setting:
        seen.setdefault(("setting", s.name), []).append(s.versions)
    for bh in content.behaviour:
        seen.setdefault(("behaviour", bh.name), []).append("")
    for (kind, name), ranges in seen.items():
        for i, a in enumerate(ranges):
            for b in ranges[i + 1 :]:
                if _overlap(a, b):
                    raise VcfgError(
                        f"{label}: {kind} {name!r} appears twice for overlapping versions ({a!r} and {b!r})",
                        hint="split the versions so they do not overlap, or merge the entries",
                    )


#: a knowledge folder is walked at most this deep and over at most this many entries
#: (``knowledge = ["/"]`` must not walk the whole file system); symlinked folders
#: are not followed
_WALK_DEPTH, _WALK_ENTRIES = 8, 20_000


def _pack_files(directory: Path) -> list[Path]:
    import stat

    out: list[Path] = []
    seen = 0
    todo = [(directory, 0)]
    while todo:
        folder, depth = todo.pop()
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError:
            continue
        seen += len(entries)
        if seen > _WALK_ENTRIES:
            raise VcfgError(
                f"{directory}: more than {_WALK_ENTRIES:,} entries under this knowledge folder; not walked",
                hint="name the folder that holds the packs (a knowledge folder is walked at most "
                f"{_WALK_DEPTH} levels deep)",
            )
        for e in entries:
            try:
                if e.is_dir(follow_symlinks=False):
                    if depth < _WALK_DEPTH:
                        todo.append((Path(e.path), depth + 1))
                elif e.name.endswith(".toml") and stat.S_ISREG(e.stat().st_mode):
                    out.append(Path(e.path))
            except OSError:
                continue
    return sorted(out)


def load_packs(extra_dirs: Iterable[Path | str] = ()) -> "Knowledge":
    """The bundled packs, then every ``*.toml`` under each of ``extra_dirs`` (a
    directory, searched recursively, or a single file), in that order."""
    packs = list(_bundled_packs())
    for d in extra_dirs:
        p = Path(d)
        if p.is_file():
            packs.append(read_pack(p))
        elif p.is_dir():
            packs.extend(read_pack(f) for f in _pack_files(p))
        else:
            raise VcfgError(f"{p}: no such knowledge pack directory or file")
    return Knowledge(packs)


@lru_cache(maxsize=1)
def _bundled_packs() -> tuple[Pack, ...]:
    """The bundled packs, from their checked JSON form (`bundled_json`): parsing the
    TOML and checking every entry again would cost every lint about 10 ms."""
    try:
        doc = json.loads(BUNDLED_JSON.read_text(encoding="utf-8"))
    except FileNotFoundError:  # a source tree before generation: read the TOML
        return tuple(_with_overlay(read_pack(f, bundled=True)) for f in _pack_files(BUNDLED_DIR))
    return tuple(
        Pack(path=BUNDLED_DIR / p["file"], bundled=True, content=build(PackFile, p["content"])) for p in doc["packs"]
    )


@lru_cache(maxsize=1)
def _bundled_since() -> dict[str, str]:
    return {b.name: b.since for p in _bundled_packs() for b in p.content.behaviour}


def behaviour_since(name: str) -> str:
    """The first release with parser behaviour ``name`` (a ``[[behaviour]]`` of the
    bundled packs: vcfg's model of vLLM's parser, not for user packs to change)."""
    return _bundled_since()[name]


def bundled_json() -> str:
    """The bundled TOML packs, read and checked, as the JSON that ships beside them
    (written by ``python -m vcfg.dev generate``; a test keeps it current)."""
    packs = [_with_overlay(read_pack(f, bundled=True)) for f in _pack_files(BUNDLED_DIR)]
    doc = {
        "generated_by": GENERATED_BY,
        "packs": [
            {"file": p.path.relative_to(BUNDLED_DIR).as_posix(), "content": dump(p.content, exclude_defaults=True)}
            for p in packs
        ],
    }
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def _with_overlay(pack: Pack) -> Pack:
    """A bundled plugin entry with no ``connectors`` and ``entry_points`` gets them from
    the plugin's bundled overlay (vcfg/catalog/plugins.py, built from its source): the
    connectors it registers under new names and the entry points that register them,
    which ``VLLM_PLUGINS`` must list.  Its variables stay in the overlay: a lint knows
    them only when the plugin is named."""
    from vcfg.catalog import plugins as pl

    entries = []
    for p in pack.content.plugin:
        if p.connectors or p.entry_points:
            entries.append(p)
            continue
        try:
            pc = pl.find(p.name)
        except VcfgError:
            entries.append(p)
            continue
        names = [c.name for c in pc.connectors if c.name not in pc.replaces]
        eps = {e.group: e.name for e in pc.entry_points if e.name in set(pc.registered_by.values())}
        entries.append(replace(p, connectors=names, entry_points=eps))
    return replace(pack, content=replace(pack.content, plugin=entries))


# --------------------------------------------------------------------------- queries


def _norm_flag(name: str) -> str:
    """``--foo_bar=1`` -> ``--foo-bar``: vLLM's parser treats ``_`` and ``-`` alike."""
    name = name.split("=", 1)[0]
    if name.startswith("--"):
        return "--" + name[2:].replace("_", "-")
    return name


@record
class Knowledge:
    """All loaded packs.  Queries return the entry from the last pack that has one
    for the version asked, so user packs (loaded last) win over bundled ones."""

    packs: list[Pack] = field(default_factory=list)
    #: (name, version) -> connector facts: rules ask for every launch and every key
    _facts: dict[tuple[str, Optional[str]], Optional["ConnectorFacts"]] = field(
        default_factory=dict, repr=False, compare=False
    )
    #: (kind, name, version) -> the removed entry: rules ask for every variable of
    #: every launch, and each entry's version range is parsed per question
    _removed: dict[tuple[str, str, Optional[str]], Optional[RemovedEntry]] = field(
        default_factory=dict, repr=False, compare=False
    )

    # -- all entries, in load order
    @property
    def removed_entries(self) -> list[RemovedEntry]:
        return [e for p in self.packs for e in p.content.removed]

    @property
    def connectors(self) -> list[ConnectorFacts]:
        return [c for p in self.packs for c in p.content.connector]

    @property
    def plugins(self) -> list[Plugin]:
        return [x for p in self.packs for x in p.content.plugin]

    # -- removed things
    def removed(self, kind: RemovedKind, name: str, version: Optional[str] = None) -> Optional[RemovedEntry]:
        """The entry saying ``name`` (of ``kind``) is gone in ``version`` (any, if None)."""
        key = (kind, name, version)
        if key in self._removed:
            return self._removed[key]
        want = _norm_flag(name) if kind == "flag" else name
        hit: Optional[RemovedEntry] = None
        for e in self.removed_entries:
            if e.kind != kind or not e.holds_for(version):
                continue
            names = [_norm_flag(n) for n in e.names()] if kind == "flag" else e.names()
            if want in names:
                hit = e
        self._removed[key] = hit
        return hit

    def removed_flag(self, name: str, version: Optional[str] = None) -> Optional[RemovedEntry]:
        return self.removed("flag", name, version)

    def removed_env(self, name: str, version: Optional[str] = None) -> Optional[RemovedEntry]:
        return self.removed("env", name, version)

    def removed_config_field(self, name: str, version: Optional[str] = None) -> Optional[RemovedEntry]:
        """``name`` is ``Class.field``, e.g. ``KVTransferConfig.kv_buffer_size``."""
        return self.removed("config_field", name, version)

    def removed_connector(self, name: str, version: Optional[str] = None) -> Optional[RemovedEntry]:
        return self.removed("connector", name, version)

    # -- connectors
    def connector_facts(self, name: str, version: Optional[str] = None) -> Optional[ConnectorFacts]:
        """Facts for connector ``name`` in ``version``, narrowed to that version."""
        key = (name, version)
        if key not in self._facts:
            hit: Optional[ConnectorFacts] = None
            for c in self.connectors:
                if name in (c.name, *c.aliases) and c.holds_for(version):
                    hit = c
            self._facts[key] = hit.for_version(version) if hit is not None else None
        return self._facts[key]

    # -- the vllm command line
    def subcommands(self, parent: str = "") -> list[str]:
        """The subcommands of ``vllm`` (or, with ``parent="bench"``, of ``vllm bench``)
        in any release the packs know."""
        out: list[str] = []
        for p in self.packs:
            for sc in p.content.subcommand:
                head, _, tail = sc.name.rpartition(" ")
                if head == parent and tail not in out:
                    out.append(tail)
        return out

    # -- names and values vLLM's checks read
    @property
    def settings(self) -> list[Setting]:
        return [s for p in self.packs for s in p.content.setting]

    def setting(self, name: str, version: Optional[str] = None) -> Optional[Setting]:
        """The ``[[setting]]`` ``name`` for ``version`` (the last pack's that has one)."""
        hit: Optional[Setting] = None
        for s in self.settings:
            if s.name == name and s.holds_for(version):
                hit = s
        return hit

    # -- plugins
    def plugin(self, name: str) -> Optional[Plugin]:
        """A plugin by distribution name, package name or VLLM_PLUGINS name."""
        hit: Optional[Plugin] = None
        for p in self.plugins:
            if name in (p.name, p.package, *p.plugin_names):
                hit = p
        return hit

    def plugin_env(self, name: str) -> Optional[PluginEnv]:
        """An environment variable some plugin reads."""
        found = self.plugin_of_env(name)
        return found.env_var(name) if found is not None else None

    def plugin_of_env(self, name: str) -> Optional[Plugin]:
        hit: Optional[Plugin] = None
        for p in self.plugins:
            if p.env_var(name) is not None:
                hit = p
        return hit

    def plugin_of_connector(self, name: str) -> Optional[Plugin]:
        hit: Optional[Plugin] = None
        for p in self.plugins:
            if name in p.connectors:
                hit = p
        return hit
