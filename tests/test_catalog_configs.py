"""Tests for vcfg.catalog.extract.configs on small synthetic trees (default suite) and on real
vLLM releases (slow)."""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

from vcfg.catalog.extract.configs import extract_configs, scan_configs
from vcfg.catalog.extract.source import from_tree
from vcfg.catalog.model import ConfigClass, ConfigField


def make_tree(root: Path, files: dict[str, str]) -> Path:
    base = {
        "vllm/__init__.py": "",
        "vllm/envs.py": "VLLM_FLAG: bool = False\n",
        "vllm/engine/__init__.py": "",
        "vllm/engine/arg_utils.py": "",
    }
    for rel, text in {**base, **files}.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    return root


def by_name(classes: list[ConfigClass]) -> dict[str, ConfigClass]:
    return {c.name: c for c in classes}


def fld(c: ConfigClass, name: str) -> ConfigField:
    f = c.field(name)
    assert f is not None, f"{c.name}.{name} missing; have {[x.name for x in c.fields]}"
    return f


# --------------------------------------------------------------------------- new shape

NEW_UTILS = """
def config(cls=None, *, config=None, **kw):
    ...
"""

NEW_KINDS = """
from typing import Literal

Side = Literal["left", "both"]
OtherSide = Literal["right", "both"]
AnySide = Literal[Side, OtherSide]
Level = Literal["low", "high"]
LIMIT = 4 * 1024
"""

NEW_CFG = """
import enum
from dataclasses import InitVar, field
from typing import Annotated, Any, Callable, ClassVar, Literal, Optional, TypedDict, Union

from pydantic import ConfigDict, Field, SkipValidation

from vllm.config.utils import config
from .kinds import AnySide, LIMIT
from vllm.config.kinds import Level
from vllm.helpers import Helper, make_device


class Mode(enum.IntEnum):
    FAST = 1
    SLOW = 2


class Colour(str, enum.Enum):
    RED = "red"


class Opts(TypedDict):
    a: int


class Bag(dict[str, int]):
    pass


def _choose():
    return "x"


@config
class InnerConfig:
    depth: int = 3


@config(config=ConfigDict(arbitrary_types_allowed=True))
class OuterConfig:
    DEFAULT_TOKENS: ClassVar[int] = 2048
    side: Optional[AnySide] = None
    level: Level | str = "low"
    tokens: int = Field(default=DEFAULT_TOKENS, ge=1)
    ratio: float = Field(default=0.5, gt=0, le=1)
    positional: int | None = Field(None, ge=LIMIT)
    annotated: Annotated[int, Field(ge=2)] = 7
    skip: SkipValidation[list[int]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    inner: InnerConfig = Field(default_factory=InnerConfig)
    maybe_inner: InnerConfig | None = None
    helper: Helper = Field(default_factory=lambda: Helper())
    device: str = field(default_factory=make_device)
    computed: str = Field(default_factory=_choose)
    lam: list[str] = field(default_factory=lambda: ["a", "b"])
    mode: Mode = Mode.SLOW
    colour: Colour = Colour.RED
    limit: int = LIMIT
    neg: int = -1
    tup: tuple[int, ...] = (1, 2)
    pair: tuple[int, str] = (1, "a")
    nested_lit: list[Literal["p", "q"]] | None = None
    mixed: list[int | str] = field(default_factory=list)
    tags: set[str] = field(default_factory=set)
    cls_ref: type[Helper] | str | None = None
    anything: Any = None
    fn: Callable[[int], int] | None = None
    opts: Opts | None = None
    bag: Bag = Field(default_factory=Bag)
    fwd: "InnerConfig | None" = None
    union: Union[int, str] = 0
    flag: bool | str | None = None
    max_len: InitVar[int] = 0
    needs: InitVar[bool]
    derived: int = field(init=False)
    derived2: int = Field(default=0, init=False)
    _private: int = Field(default=1, gt=0)
    env_default: bool = False


class NotAConfig:
    x: int = 1
"""

NEW_ENTRY = """
from dataclasses import dataclass
from vllm.config.utils import config
from vllm.config import OuterConfig


@config
class BaseFrontendArgs:
    host: str | None = None
    port: int = 8000
    outer: OuterConfig | None = None


@config
class FrontendArgs(BaseFrontendArgs):
    port: int = 9000
    extra_only: bool = False
"""

NEW_BATCH = """
from vllm.config.utils import config
from vllm.entrypoints.cli_args import BaseFrontendArgs


@config
class BatchFrontendArgs(BaseFrontendArgs):
    batch_file: str = ""
"""

NEW_HELPERS = """
from dataclasses import dataclass


@dataclass
class Helper:
    name: str = "h"
    size: int = 1


def make_device():
    return "cuda"
"""


@pytest.fixture
def new_tree(tmp_path: Path) -> Path:
    return make_tree(
        tmp_path,
        {
            "vllm/config/__init__.py": "from vllm.config.main import OuterConfig, InnerConfig\n",
            "vllm/config/utils.py": NEW_UTILS,
            "vllm/config/kinds.py": NEW_KINDS,
            "vllm/config/main.py": NEW_CFG,
            "vllm/helpers.py": NEW_HELPERS,
            "vllm/entrypoints/__init__.py": "",
            "vllm/entrypoints/cli_args.py": NEW_ENTRY,
            "vllm/entrypoints/batch.py": NEW_BATCH,
            "vllm/entrypoints/other.py": "import os\n",
        },
    )


@pytest.fixture
def new_classes(new_tree: Path) -> dict[str, ConfigClass]:
    return by_name(extract_configs(from_tree(new_tree)))


def test_new_shape_finds_config_classes_and_referenced_dataclasses(new_tree: Path) -> None:
    scan = scan_configs(from_tree(new_tree))
    names = [c.name for c in scan.classes]
    assert sorted(scan.decorated) == sorted(
        ["InnerConfig", "OuterConfig", "BaseFrontendArgs", "FrontendArgs", "BatchFrontendArgs"]
    )
    # the plain dataclass a field refers to is included; non-dataclasses are not
    assert "Helper" in names
    assert "NotAConfig" not in names and "Opts" not in names and "Bag" not in names
    assert scan.warnings == []


def test_new_shape_extra_forbid_and_loc(new_classes: dict[str, ConfigClass]) -> None:
    outer = new_classes["OuterConfig"]
    assert outer.extra_forbid is True  # @config(config=ConfigDict(arbitrary_types_allowed))
    assert new_classes["InnerConfig"].extra_forbid is True  # bare @config
    assert new_classes["Helper"].extra_forbid is False  # stdlib dataclass
    assert outer.loc.file == "vllm/config/main.py"
    src = NEW_CFG.splitlines()
    assert src[outer.loc.line - 1].startswith("class OuterConfig")
    tokens = fld(outer, "tokens")
    assert src[tokens.loc.line - 1].strip().startswith("tokens:")


def test_literal_alias_across_modules_flattened_and_deduplicated(
    new_classes: dict[str, ConfigClass],
) -> None:
    side = fld(new_classes["OuterConfig"], "side")
    assert side.hints == ["Literal", "None"]
    assert side.choices == ["left", "both", "right"]
    assert side.type == "Literal['left', 'both', 'right'] | None"
    level = fld(new_classes["OuterConfig"], "level")  # imported by absolute name
    assert level.hints == ["Literal", "str"]
    assert level.choices == ["low", "high"]


def test_field_constraints_and_constants(new_classes: dict[str, ConfigClass]) -> None:
    outer = new_classes["OuterConfig"]
    tokens = fld(outer, "tokens")
    assert tokens.default == 2048  # ClassVar constant
    assert tokens.constraint is not None and tokens.constraint.ge == 1
    ratio = fld(outer, "ratio")
    assert ratio.default == 0.5
    assert (ratio.constraint.gt, ratio.constraint.le) == (0, 1)  # type: ignore[union-attr]
    assert ratio.constraint.ge is None  # type: ignore[union-attr]
    pos = fld(outer, "positional")
    assert pos.default is None and not pos.required
    assert pos.constraint.ge == 4096  # type: ignore[union-attr]  # imported module constant
    ann = fld(outer, "annotated")
    assert ann.default == 7 and ann.constraint.ge == 2  # type: ignore[union-attr]
    assert ann.hints == ["int"]
    assert fld(outer, "limit").default == 4096
    assert fld(outer, "neg").default == -1
    assert "DEFAULT_TOKENS" not in [f.name for f in outer.fields]  # ClassVar is not a field


def test_factories_and_nested(new_classes: dict[str, ConfigClass]) -> None:
    outer = new_classes["OuterConfig"]
    assert fld(outer, "skip").default == [] and fld(outer, "skip").hints == ["list[int]"]
    assert fld(outer, "extra").default == {} and fld(outer, "extra").hints == ["dict"]
    inner = fld(outer, "inner")
    assert inner.default == {"$config": "InnerConfig"}
    assert inner.nested == "InnerConfig" and inner.hints == ["InnerConfig"]
    maybe = fld(outer, "maybe_inner")
    assert maybe.hints == ["InnerConfig", "None"] and maybe.nested == "InnerConfig"
    helper = fld(outer, "helper")
    assert helper.nested == "Helper" and helper.hints == ["Helper"]
    assert helper.default == {"$config": "Helper"}
    assert fld(outer, "device").default == {"$dynamic": "factory make_device"}
    assert fld(outer, "computed").default == {"$dynamic": "factory _choose"}
    assert fld(outer, "lam").default == ["a", "b"]
    assert fld(outer, "tags").default == []
    bag = fld(outer, "bag")
    assert bag.hints == ["dict"] and bag.default == {}  # dict subclass


def test_enums_and_classes(new_classes: dict[str, ConfigClass]) -> None:
    outer = new_classes["OuterConfig"]
    mode = fld(outer, "mode")
    assert mode.hints == ["class:Mode"] and mode.default == 2
    assert fld(outer, "colour").default == "red"
    assert fld(outer, "cls_ref").hints == ["class:type", "str", "None"]
    assert fld(outer, "cls_ref").type == "type[Helper] | str | None"
    assert fld(outer, "anything").hints == ["class:Any"]
    assert fld(outer, "fn").hints == ["class:Callable", "None"]
    assert fld(outer, "opts").hints == ["class:Opts", "None"]  # TypedDict


def test_collection_and_union_rendering(new_classes: dict[str, ConfigClass]) -> None:
    outer = new_classes["OuterConfig"]
    assert fld(outer, "tup").hints == ["tuple[int, ...]"]
    assert fld(outer, "tup").default == [1, 2]
    assert fld(outer, "pair").hints == ["tuple[int, str]"]
    assert fld(outer, "nested_lit").hints == ["list[Literal['p', 'q']]", "None"]
    assert fld(outer, "nested_lit").choices is None
    assert fld(outer, "mixed").hints == ["list[int | str]"]
    assert fld(outer, "tags").hints == ["set[str]"]
    assert fld(outer, "fwd").hints == ["InnerConfig", "None"]
    assert fld(outer, "union").hints == ["int", "str"]
    assert fld(outer, "flag").hints == ["bool", "str", "None"]


def test_initvar_init_false_private(new_classes: dict[str, ConfigClass]) -> None:
    outer = new_classes["OuterConfig"]
    max_len = fld(outer, "max_len")
    assert max_len.init_var and max_len.hints == ["int"] and max_len.default == 0
    assert max_len.type == "InitVar[int]"
    needs = fld(outer, "needs")
    assert needs.init_var and needs.required
    derived = fld(outer, "derived")
    assert derived.init is False and derived.required
    derived2 = fld(outer, "derived2")
    assert derived2.init is False and derived2.default == 0 and not derived2.required
    private = fld(outer, "_private")
    assert private.default == 1 and private.constraint.gt == 0  # type: ignore[union-attr]
    # declaration order is kept
    names = [f.name for f in outer.fields]
    assert names.index("side") < names.index("tokens") < names.index("_private")


def test_inheritance_merges_fields_in_dataclass_order(
    new_classes: dict[str, ConfigClass],
) -> None:
    front = new_classes["FrontendArgs"]
    assert front.bases == ["BaseFrontendArgs"]
    assert [f.name for f in front.fields] == ["host", "port", "outer", "extra_only"]
    port = fld(front, "port")
    assert port.default == 9000  # the override wins, in the base position
    assert port.loc.file == "vllm/entrypoints/cli_args.py"
    assert fld(front, "host").loc.line < port.loc.line
    # entry point module imports the config class through vllm/config/__init__.py
    assert fld(front, "outer").nested == "OuterConfig"
    batch = new_classes["BatchFrontendArgs"]  # base imported from another module
    assert [f.name for f in batch.fields] == ["host", "port", "outer", "batch_file"]
    assert fld(batch, "port").default == 8000
    assert batch.loc.file == "vllm/entrypoints/batch.py"


# --------------------------------------------------------------------------- old shapes

OLD_SINGLE = """
from dataclasses import field, InitVar
from typing import Literal, Optional, ClassVar

from pydantic import ConfigDict
from pydantic.dataclasses import dataclass

import vllm.envs as envs

KVProducer = Literal["kv_producer", "kv_both"]
KVConsumer = Literal["kv_consumer", "kv_both"]
KVRole = Literal[KVProducer, KVConsumer]


def config(cls):
    return cls


def get_field(cls, name):
    ...


@config
@dataclass
class KVConfig:
    kv_role: Optional[KVRole] = None
    kv_buffer_size: float = 1e9
    kv_port: int = 14579
    kv_extra: dict = field(default_factory=dict)
    env_based: bool = envs.VLLM_FLAG


@config
@dataclass(config=ConfigDict(extra="forbid"))
class StrictConfig:
    a: int = 1
    limits: dict[str, int] = get_field(KVConfig, "kv_extra")


@config
@dataclass(config=ConfigDict(arbitrary_types_allowed=True))
class Loose:
    kv: KVConfig = field(default_factory=KVConfig)
"""

OLD_FRONTEND = """
from dataclasses import dataclass


@dataclass
class FrontendArgs:
    host: str | None = None
    port: int = 8000
"""


@pytest.fixture
def old_classes(tmp_path: Path) -> dict[str, ConfigClass]:
    make_tree(
        tmp_path,
        {
            "vllm/config.py": OLD_SINGLE,
            "vllm/entrypoints/__init__.py": "",
            "vllm/entrypoints/openai/__init__.py": "",
            "vllm/entrypoints/openai/cli_args.py": OLD_FRONTEND,
        },
    )
    return by_name(extract_configs(from_tree(tmp_path)))


def test_old_single_file_shape(old_classes: dict[str, ConfigClass]) -> None:
    kv = old_classes["KVConfig"]
    assert kv.loc.file == "vllm/config.py"
    assert kv.extra_forbid is False  # pydantic default: extra keys ignored
    role = fld(kv, "kv_role")
    assert role.choices == ["kv_producer", "kv_both", "kv_consumer"]
    assert role.hints == ["Literal", "None"]
    assert fld(kv, "kv_buffer_size").default == 1e9
    assert fld(kv, "kv_extra").default == {}
    assert fld(kv, "env_based").default == {"$dynamic": "env VLLM_FLAG"}
    strict = old_classes["StrictConfig"]
    assert strict.extra_forbid is True  # explicit ConfigDict(extra="forbid")
    assert fld(strict, "limits").default == {}  # copied through get_field
    assert old_classes["Loose"].extra_forbid is False
    assert fld(old_classes["Loose"], "kv").default == {"$config": "KVConfig"}


def test_plain_dataclass_frontend_args_included(old_classes: dict[str, ConfigClass]) -> None:
    front = old_classes["FrontendArgs"]
    assert [f.name for f in front.fields] == ["host", "port"]
    assert front.loc.file == "vllm/entrypoints/openai/cli_args.py"
    assert front.extra_forbid is False


def test_unparsable_and_odd_constructs_do_not_crash(tmp_path: Path) -> None:
    make_tree(
        tmp_path,
        {
            "vllm/config/__init__.py": "",
            "vllm/config/broken.py": "@config\nclass (:\n",
            "vllm/config/odd.py": """
                from typing import Literal
                from vllm.config.utils import config

                Loop = Literal[Loop2]
                Loop2 = Literal[Loop]

                @config
                class OddConfig:
                    loop: Loop = "x"
                    weird: 1 + 2 = 3
                    lam: int = (lambda: 1)()
                    starred: dict = {**{}}
                    inf: float = float("inf")
                    unknown: SomethingUndefined = UNDEFINED
                """,
        },
    )
    scan = scan_configs(from_tree(tmp_path))
    assert any("broken.py" in w for w in scan.warnings)
    odd = by_name(scan.classes)["OddConfig"]
    assert fld(odd, "loop").choices == []
    assert fld(odd, "inf").default == {"$dynamic": "float('inf')"}
    assert fld(odd, "unknown").hints == ["class:SomethingUndefined"]
    assert "$dynamic" in fld(odd, "unknown").default
    assert "$dynamic" in fld(odd, "starred").default


RUNTIME_BINDING = """
from typing import TYPE_CHECKING, Any, Literal, Optional, Union

from vllm.config.utils import config
from vllm.lazy import LazyLoader

if TYPE_CHECKING:
    from vllm.formats import Formats
    from vllm.external import Thing
    import vllm.quant as quant
else:
    Formats = str
    Thing = Any
    quant = LazyLoader("quant", globals(), "vllm.quant")


@config
class Target:
    a: int = 0


@config
class RuntimeConfig:
    fmt: str | Formats = "auto"
    thing: Thing | None = None
    method: quant.Methods | None = None
    quoted: Optional[Union[dict, "Target"]] = None
    whole: "Target | None" = None
"""


def test_names_bound_as_at_run_time(tmp_path: Path) -> None:
    make_tree(
        tmp_path,
        {
            "vllm/config/__init__.py": "",
            "vllm/config/rt.py": RUNTIME_BINDING,
            "vllm/formats.py": "from typing import Literal\nFormats = Literal['a', 'b']\n",
            "vllm/quant.py": "from typing import Literal\nMethods = Literal['q1', 'q2']\n",
        },
    )
    rt = by_name(extract_configs(from_tree(tmp_path)))["RuntimeConfig"]
    # the else branch of `if TYPE_CHECKING` is what vLLM's parser sees
    assert fld(rt, "fmt").hints == ["str"] and fld(rt, "fmt").choices is None
    assert fld(rt, "thing").hints == ["class:Any", "None"]
    # a LazyLoader binds a module
    assert fld(rt, "method").hints == ["Literal", "None"]
    assert fld(rt, "method").choices == ["q1", "q2"]
    # a quoted name inside Union stays a ForwardRef: a plain class, never nested
    quoted = fld(rt, "quoted")
    assert quoted.hints == ["dict", "class:Target", "None"] and quoted.nested is None
    # a whole quoted annotation is resolved
    assert fld(rt, "whole").nested == "Target"


# --------------------------------------------------------------------------- real releases


def _real(version: str):  # type: ignore[no-untyped-def]
    from vcfg.catalog.extract.source import from_version

    return from_version(version)


@pytest.mark.slow
@pytest.mark.parametrize("version", ["0.10.0", "0.11.0"])
def test_real_kv_transfer_config_old(version: str) -> None:
    classes = by_name(extract_configs(_real(version)))
    kv = classes["KVTransferConfig"]
    assert [f.name for f in kv.fields] == [
        "kv_connector",
        "engine_id",
        "kv_buffer_device",
        "kv_buffer_size",
        "kv_role",
        "kv_rank",
        "kv_parallel_size",
        "kv_ip",
        "kv_port",
        "kv_connector_extra_config",
        "kv_connector_module_path",
    ]
    assert fld(kv, "kv_buffer_size").default == 1e9
    assert fld(kv, "kv_buffer_device").default == "cuda"
    assert fld(kv, "kv_role").choices == ["kv_producer", "kv_both", "kv_consumer"]
    assert fld(kv, "kv_port").default == 14579
    assert kv.extra_forbid is False
    assert "FrontendArgs" in classes


@pytest.mark.slow
def test_real_0_20() -> None:
    scan = scan_configs(_real("0.20.0"))
    classes = by_name(scan.classes)
    kv = classes["KVTransferConfig"]
    assert len(kv.fields) == 13
    assert fld(kv, "kv_buffer_device").default == {"$dynamic": "factory kv_buffer_device_default_factory"}
    assert kv.extra_forbid is True
    front = classes["FrontendArgs"]
    assert front.bases == ["BaseFrontendArgs"]
    assert front.fields[0].name == classes["BaseFrontendArgs"].fields[0].name
    assert fld(classes["ParallelConfig"], "eplb_config").nested == "EPLBConfig"


@pytest.mark.slow
def test_real_0_33() -> None:
    src = _real("0.33.0")
    start = time.perf_counter()
    scan = scan_configs(src)
    elapsed = time.perf_counter() - start
    classes = by_name(scan.classes)
    assert len(scan.decorated) == 45
    in_config = [c for c in scan.classes if c.loc.file.startswith("vllm/config/")]
    assert sum(1 for c in in_config if c.name in scan.decorated) == 42
    assert {"BaseFrontendArgs", "FrontendArgs", "BatchFrontendArgs"} <= set(scan.decorated)
    kv = classes["KVTransferConfig"]
    assert [f.name for f in kv.fields] == [
        "kv_connector",
        "engine_id",
        "kv_buffer_device",
        "kv_role",
        "kv_port",
        "kv_connector_extra_config",
        "kv_connector_module_path",
        "enable_permute_local_kv",
        "kv_load_failure_policy",
    ]
    cache = classes["CacheConfig"]
    gmu = fld(cache, "gpu_memory_utilization")
    assert gmu.default == 0.92
    assert (gmu.constraint.gt, gmu.constraint.le) == (0, 1)  # type: ignore[union-attr]
    dtype = fld(cache, "cache_dtype")
    assert "Literal" in dtype.hints and "str" in dtype.hints
    assert dtype.choices is not None and dtype.choices[0] == "auto"
    tp = fld(classes["ParallelConfig"], "tensor_parallel_size")
    assert tp.constraint.ge == 1 and tp.default == 1  # type: ignore[union-attr]
    sched = classes["SchedulerConfig"]
    assert fld(sched, "max_num_batched_tokens").default == 2048
    assert fld(sched, "max_model_len").init_var and fld(sched, "max_model_len").required
    assert all(c.extra_forbid for c in scan.classes if c.name in scan.decorated)
    assert scan.warnings == []
    assert elapsed < 2.0
