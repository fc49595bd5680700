"""The catalog: facts about one vLLM release, read from its source.

Every fact carries the vLLM file and line it was read from (`Loc`).  Catalogs hold
facts only (names, types, defaults, choices, constraints, locations): never vLLM's
prose.  Help texts are read at run time from a vLLM source the user has.

JSON values.  Defaults are stored as the JSON value the real parser would hold:
tuples and sets become lists, enums their value, ``argparse.SUPPRESS`` its string
``"==SUPPRESS=="``, a config-class instance ``{"$config": "ClassName"}``, and a value
that cannot be known statically (platform or torch dependent, random, computed from
another variable) ``{"$dynamic": "<short description>"}``.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Literal, Optional

from vcfg.records import field, record

#: Bumped when the on-disk shape of a catalog changes incompatibly.
SCHEMA_VERSION = 1

JsonValue = Any


class _Frozen:
    """Catalog entries are frozen records (``vcfg.records``): the bundled catalogs are
    built without checks on the lint path, anything else is loaded with them."""


@record(frozen=True)
class Loc(_Frozen):
    """A place in vLLM's source tree, relative to the tree root (``vllm/envs.py``).

    Serialised as one string ``"vllm/envs.py:123"``: catalogs hold thousands of them,
    and the compact form keeps bundled catalogs small and fast to load."""

    file: str
    line: int

    @classmethod
    def __load__(cls, value: Any) -> Any:
        if isinstance(value, str):
            file, _, line = value.rpartition(":")
            return {"file": file, "line": int(line) if line.isdigit() else 0}
        return value

    def __dump__(self) -> str:
        return f"{self.file}:{self.line}"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


# --------------------------------------------------------------------------- env vars

#: How vLLM turns the variable's text into a value.  A linter uses this to tell
#: whether a given value would make vLLM raise (see ``vcfg.catalog.envparse``).
EnvParse = Literal[
    "int",  # int(v): "abc", "1.5", "true" raise
    "float",  # float(v)
    "bool_int",  # bool(int(v)): "true"/"yes"/"" raise
    "bool_word",  # v.lower() in truthy (never raises; anything else is False)
    "str",  # any text
    "list",  # comma separated list of strings
    "choices",  # one of `choices` (case_sensitive or not), else ValueError
    "set_choices",  # comma separated subset of `choices`
    "json",  # JSON text or a path to a JSON file
    "port",  # int, and not a URI (Kubernetes service links)
    "other",  # an idiom vcfg does not model: never judged
]


@record(frozen=True, kw_only=True)
class EnvVar(_Frozen):
    name: str
    type: str = field(description="Python type from the TYPE_CHECKING stub (or inferred)")
    default: JsonValue = None
    parse: EnvParse = "other"
    choices: Optional[list[str]] = None
    case_sensitive: bool = True
    truthy: Optional[list[str]] = field(default=None, description="for bool_word: the lower-cased values read as True")
    can_raise: bool = False
    reads: list[str] = field(default_factory=list, description="other variables the parser reads")
    loc: Loc


# --------------------------------------------------------------------------- configs


@record(frozen=True)
class Constraint(_Frozen):
    gt: Optional[float] = None
    ge: Optional[float] = None
    lt: Optional[float] = None
    le: Optional[float] = None


@record(frozen=True, kw_only=True)
class ConfigField(_Frozen):
    name: str
    type: str = field(description="the annotation, type aliases resolved, as text")
    #: Flattened type members: "int", "float", "str", "bool", "None", "dict", "list[int]",
    #: "Literal", "list[T]"/"set[T]"/"tuple[...]", a config class name, or "class:<Name>"
    #: for any other class (the vocabulary is documented in vcfg/catalog/extract/configs.py).
    hints: list[str] = field(default_factory=list)
    choices: Optional[list[JsonValue]] = None
    default: JsonValue = None
    required: bool = False
    constraint: Optional[Constraint] = None
    nested: Optional[str] = field(default=None, description="config class of a nested config-typed field")
    init: bool = True
    init_var: bool = False
    #: a ``@field_validator`` that sees the value before pydantic: ``none`` (lets None
    #: through), ``lower-dash``/``upper`` (normalises text), ``coerce`` (anything else:
    #: the value is not judged); see vcfg/catalog/extract/configs_validators.py
    validator: Optional[str] = None
    validator_loc: Optional[Loc] = None
    loc: Loc


@record(frozen=True)
class ConfigClass(_Frozen):
    name: str
    loc: Loc
    bases: list[str] = field(default_factory=list)
    extra_forbid: bool = False
    fields: list[ConfigField] = field(default_factory=list)
    #: vLLM builds the class only on a condition (``option:enable_lora``,
    #: ``model:multimodal``), so its fields' bounds are checked only then; see
    #: vcfg/catalog/extract/configs_conditional.py
    built_when: Optional[str] = None
    built_when_loc: Optional[Loc] = None

    def field(self, name: str) -> Optional[ConfigField]:
        for f in self.fields:
            if f.name == name:
                return f
        return None


# --------------------------------------------------------------------------- flags

FlagAction = Literal[
    "store",
    "store_true",
    "store_false",
    "store_const",
    "append",
    "boolean_optional",  # --x / --no-x
    "enable_disable",  # 0.33+: --enable-x / --disable-x / --no-enable-x
    "help",
    "custom",
]


@record(frozen=True)
class Flag(_Frozen):
    #: Every option string the real parser registers for this action, generated
    #: ``--no-x`` / inverse forms included, in registration order.
    option_strings: list[str]
    dest: str
    #: "int", "float", "str", "json" (json.loads), "config" (a nested config class
    #: parsed from JSON, see `config_class_of_value`), "human_readable_int",
    #: "human_readable_int_or_auto", "dict_or_str", "bool" (for nargs="?" bool|str),
    #: "lower_underscore", "custom:<name>", or None (boolean actions).
    type: Optional[str] = None
    optional: bool = field(default=False, description="'' and 'None' parse to None")
    nargs: Optional[str | int] = None
    const: JsonValue = None
    choices: Optional[list[JsonValue]] = None
    metavar_choices: Optional[list[JsonValue]] = field(
        default=None, description="suggested values shown as metavar, not enforced"
    )
    default: JsonValue = None
    action: FlagAction = "store"
    group: Optional[str] = None
    config_class: Optional[str] = None
    config_field: Optional[str] = None
    config_class_of_value: Optional[str] = field(
        default=None, description="for type='config': the class the JSON value becomes"
    )
    deprecated: bool = False
    required: bool = False
    positional: bool = False
    loc: Optional[Loc] = None

    @property
    def long_name(self) -> str:
        for s in self.option_strings:
            if s.startswith("--"):
                return s
        return self.option_strings[0] if self.option_strings else self.dest


# --------------------------------------------------------------------------- connectors


@record(frozen=True, kw_only=True)
class ExtraKey(_Frozen):
    name: str
    default: JsonValue = None
    has_default: bool = True
    type: Optional[str] = field(default=None, description="int/float/bool/str if coerced")
    loc: Loc


@record(frozen=True)
class Connector(_Frozen):
    name: str
    module: str
    class_name: str
    loc: Loc = field(description="the register_connector call")
    source_file: Optional[str] = None
    extra_keys: list[ExtraKey] = field(default_factory=list)


# --------------------------------------------------------------------------- sites


@record(frozen=True)
class Site(_Frozen):
    """A named place where configuration flows (see vcfg/catalog/extract/sites.py), e.g.
    ``kv.create_connector_call.scheduler``."""

    name: str
    loc: Loc


# --------------------------------------------------------------------------- value sets


@record(frozen=True, kw_only=True)
class ValueSet(_Frozen):
    """The names vLLM accepts for an option after argparse (argparse takes any string):
    a registry (reasoning and tool-call parsers), a ``Literal`` alias (quantization
    methods, KV cache dtypes) or an ``Enum``'s members (attention backends), read from
    the source (vcfg/catalog/extract/value_sets.py)."""

    name: str
    dest: str = field(description="the argparse dest whose value is checked")
    values: list[str] = field(default_factory=list)
    case_insensitive: bool = False
    #: values vLLM maps away before the check ("auto", "none")
    also: list[str] = field(default_factory=list)
    #: the integers that also select a name (an ``IntEnum``'s or ``Enum``'s member
    #: values: ``CompilationMode`` 0-3); ``dest`` is then ``Class.field`` of a config
    #: key, judged inside the option's JSON
    numbers: list[int] = field(default_factory=list)
    #: a boolean dest that must be set for vLLM to check (--enable-auto-tool-choice)
    when: Optional[str] = None
    #: dests that let a plugin add names (the check stands down when given)
    plugins: list[str] = field(default_factory=list)
    stage: str = field(description="when vLLM refuses: start-up, engine config, ...")
    check: Loc = field(description="where vLLM refuses an unknown name")
    loc: Loc = field(description="where the names are defined")


# --------------------------------------------------------------------------- catalog


@record(frozen=True, kw_only=True)
class Catalog(_Frozen):
    schema_version: int = SCHEMA_VERSION
    vllm_version: str
    generated_by: str = ""
    source: str = field(default="", description="what it was built from (no local paths)")
    #: the git commit a build of the development branch (a checkout, a tarball of a
    #: branch, a nightly wheel) was read from, and its branch or archive name (``main``)
    commit: Optional[str] = None
    ref: Optional[str] = None
    env_vars: list[EnvVar] = field(default_factory=list)
    configs: list[ConfigClass] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    connectors: list[Connector] = field(default_factory=list)
    sites: list[Site] = field(default_factory=list)
    value_sets: list[ValueSet] = field(default_factory=list)

    # The lookups are the catalog's own, each built when first asked (a lint asks a
    # few): a cached_property keeps its value with the instance, the fields of the
    # frozen record never change.
    @cached_property
    def _env_by_name(self) -> dict[str, EnvVar]:
        return {e.name: e for e in self.env_vars}

    @cached_property
    def _config_by_name(self) -> dict[str, ConfigClass]:
        return {c.name: c for c in self.configs}

    @cached_property
    def _flag_by_option(self) -> dict[str, Flag]:
        out: dict[str, Flag] = {}
        for f in self.flags:
            for s in f.option_strings:
                out.setdefault(s, f)
        return out

    @cached_property
    def _flag_by_dest(self) -> dict[str, Flag]:
        out: dict[str, Flag] = {}
        for f in self.flags:
            if not f.positional:
                out.setdefault(f.dest, f)
        return out

    @cached_property
    def _long_options(self) -> list[str]:
        return [s for f in self.flags for s in f.option_strings if s.startswith("--")]

    @cached_property
    def _value_set_by_dest(self) -> dict[str, ValueSet]:
        return {v.dest: v for v in self.value_sets}

    @cached_property
    def _connector_by_name(self) -> dict[str, Connector]:
        return {c.name: c for c in self.connectors}

    @property
    def label(self) -> Optional[str]:
        """``vLLM main@abc1234`` for a build of a commit, else None (a release)."""
        if not self.commit:
            return None
        return f"vLLM {self.ref or 'commit'}@{self.commit[:7]}"

    def env(self, name: str) -> Optional[EnvVar]:
        return self._env_by_name.get(name)

    def config(self, name: str) -> Optional[ConfigClass]:
        return self._config_by_name.get(name)

    def flag(self, option_string: str) -> Optional[Flag]:
        return self._flag_by_option.get(option_string)

    def flag_for_dest(self, dest: str) -> Optional[Flag]:
        """The option that stores into argparse ``dest`` (the first one not positional)."""
        return self._flag_by_dest.get(dest)

    def long_options(self) -> list[str]:
        """Every ``--option`` string, in catalog order (for did-you-mean)."""
        return self._long_options

    def sites_named(self, prefix: str) -> list[Site]:
        return [s for s in self.sites if s.name == prefix or s.name.startswith(prefix + ".")]

    def value_set(self, dest: str) -> Optional[ValueSet]:
        return self._value_set_by_dest.get(dest)

    def connector(self, name: str) -> Optional[Connector]:
        return self._connector_by_name.get(name)
