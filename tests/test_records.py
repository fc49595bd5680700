"""vcfg.records: the declarations behind catalogs, knowledge packs and every value class."""

from __future__ import annotations

import json
from typing import Literal, Optional

import pytest

from vcfg.records import (
    FrozenInstanceError,
    RecordError,
    build,
    dump,
    field,
    load,
    record,
    replace,
    tuple_record,
)

Colour = Literal["red", "green"]


@record(frozen=True)
class Where:
    file: str
    line: int

    @classmethod
    def __load__(cls, value):  # type: ignore[no-untyped-def]
        if isinstance(value, str):
            file, _, line = value.rpartition(":")
            return {"file": file, "line": int(line)}
        return value

    def __dump__(self) -> str:
        return f"{self.file}:{self.line}"


@record(frozen=True)
class Item:
    name: str = field(min_length=1)
    colour: Colour = "red"
    size: Optional[float] = None
    tags: list[str] = field(default_factory=list)
    where: Optional[Where] = None

    def __validate__(self) -> None:
        if self.size is not None and self.size < 0:
            raise ValueError("size must not be negative")


@record(frozen=True)
class Box:
    label: str = field(pattern=r"^[a-z]+$")
    items: list[Item] = field(default_factory=list)
    extra: dict[str, int] = field(default_factory=dict)
    kind: str | int = "plain"


@record(order=True)
class Mutable:
    a: int
    b: str = "x"


def test_init_positional_keyword_defaults_and_factories():
    a, b = Item("x"), Item(name="x")
    assert a == b and a.colour == "red" and a.tags == [] and a.tags is not b.tags
    assert Item("x", "green").colour == "green"
    with pytest.raises(TypeError, match="missing argument 'name'"):
        Item()
    with pytest.raises(TypeError, match="unexpected argument 'nme'"):
        Item(nme="x")
    with pytest.raises(TypeError, match="two values"):
        Item("x", name="y")


def test_frozen_hash_order_repr_replace():
    a = Item("x", tags=["t"])
    with pytest.raises(FrozenInstanceError):
        a.name = "y"  # type: ignore[misc]
    assert hash(Where("f", 1)) == hash(Where("f", 1))
    assert replace(a, colour="green") == Item("x", "green", tags=["t"]) and a.colour == "red"
    assert repr(Where("f", 2)) == "Where(file='f', line=2)"
    m = Mutable(2)
    m.a = 1
    assert sorted([Mutable(3), m]) == [Mutable(1), Mutable(3)]
    with pytest.raises(TypeError):
        hash(m)


def test_load_checks_every_value_and_names_the_place():
    box = load(Box, {"label": "ab", "items": [{"name": "n", "size": 2, "where": "a.py:3"}], "kind": 4})
    assert box.items[0].size == 2.0 and isinstance(box.items[0].size, float)
    assert box.items[0].where == Where("a.py", 3) and box.kind == 4
    cases = {
        "items.0.colour": {"label": "a", "items": [{"name": "n", "colour": "blue"}]},
        "items.0.name": {"label": "a", "items": [{"name": ""}]},
        "items.1.tags.0": {"label": "a", "items": [{"name": "n"}, {"name": "m", "tags": [1]}]},
        "items.0": {"label": "a", "items": [{"name": "n", "size": -1}]},
        "label": {"label": "A1"},
        "extra.k": {"label": "a", "extra": {"k": "1"}},
        "surprise": {"label": "a", "surprise": 1},
        "items.0.size": {"label": "a", "items": [{"name": "n", "size": True}]},
    }
    for where, data in cases.items():
        with pytest.raises(RecordError) as info:
            load(Box, data)
        assert ".".join(str(x) for x in info.value.loc) == where, (where, info.value)
    with pytest.raises(RecordError, match="Field required"):
        load(Box, {})
    with pytest.raises(RecordError, match="an object"):
        load(Box, [])


def test_build_is_lazy_and_equal_to_load():
    data = {"label": "ab", "items": [{"name": "n", "where": "a.py:3", "tags": ["t"]}]}
    built, loaded = build(Box, data), load(Box, data)
    assert "items" not in built.__dict__  # made when first read
    assert built == loaded and built.items[0].where.line == 3 and "items" in built.__dict__
    assert build(Box, {"label": "z"}).items == []


def test_dump_round_trip_and_exclusions():
    box = Box("ab", [Item("n", where=Where("a.py", 3))])
    data = dump(box)
    assert data["items"][0]["where"] == "a.py:3" and data["kind"] == "plain"
    assert load(Box, json.loads(json.dumps(data))) == box
    assert dump(box, exclude_defaults=True) == {"label": "ab", "items": [{"name": "n", "where": "a.py:3"}]}
    assert "size" not in dump(Item("n"), exclude_none=True)


def test_tuple_record():
    @tuple_record
    class Pair:
        """a pair"""

        left: int
        right: int = 0

        def total(self) -> int:
            return self.left + self.right

    p = Pair(1)
    assert p == (1, 0) and p.total() == 1 and Pair(1, 2)._replace(left=5).total() == 7
    assert Pair.__doc__ == "a pair" and Pair.__qualname__.endswith("Pair")
