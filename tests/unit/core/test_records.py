"""record: each class behaves as the slotted dataclass it replaces (equality, text form, hashing, fields), with the
shared methods instead of compiled ones."""

from __future__ import annotations

import math
import pickle
from dataclasses import FrozenInstanceError, dataclass, field, fields, replace

import pytest

from earmark.core.records import record


@record
class Point:
    x: float
    y: float = 0.0
    label: str = field(default="", compare=False)


@record(frozen=True)
class Key:
    name: str
    parts: tuple[int, ...] = ()


@record
class Single:
    value: float


@record
class Empty:
    pass


@record
class Tree:
    name: str
    children: list[Tree] = field(default_factory=list)


@dataclass(slots=True)
class PointAsDataclass:
    x: float
    y: float = 0.0
    label: str = field(default="", compare=False)


def test_equality_compares_the_compared_fields_of_the_same_class() -> None:
    assert Point(1, 2, "a") == Point(1, 2, "b")  # label is compare=False
    assert Point(1, 2) != Point(1, 3)
    assert Point(1, 2) != PointAsDataclass(1, 2)  # another class, even with the same fields
    assert Point(1, 2).__eq__(object()) is NotImplemented
    assert Empty() == Empty()


def test_a_nan_field_equals_itself_as_in_a_dataclass() -> None:
    nan = math.nan
    assert Single(nan) == Single(nan)
    assert Single(nan) != Single(math.nan * 1)  # another NaN object: a tuple compares it with ==


def test_the_text_form_is_the_dataclass_one() -> None:
    assert repr(Point(1, 2, "a")) == repr(PointAsDataclass(1, 2, "a")).replace("PointAsDataclass", "Point")
    assert repr(Empty()) == "Empty()"
    tree = Tree("root")
    tree.children.append(tree)
    assert repr(tree) == "Tree(name='root', children=[...])"  # a cycle is cut, not a RecursionError


def test_a_frozen_record_is_hashable_by_its_values_and_cannot_change() -> None:
    assert hash(Key("a", (1, 2))) == hash(Key("a", (1, 2)))
    assert len({Key("a"), Key("a"), Key("b")}) == 2
    with pytest.raises(FrozenInstanceError):
        Key("a").name = "b"  # type: ignore[misc]


def test_an_unfrozen_record_is_not_hashable() -> None:
    with pytest.raises(TypeError):
        hash(Point(1))


def test_it_stays_a_slotted_dataclass() -> None:
    point = Point(1, 2)
    assert [f.name for f in fields(point)] == ["x", "y", "label"]
    assert replace(point, y=5) == Point(1, 5)
    assert not hasattr(point, "__dict__")
    with pytest.raises(AttributeError):
        point.z = 3  # type: ignore[attr-defined]
    assert pickle.loads(pickle.dumps(Key("a", (1,)))) == Key("a", (1,))
    assert pickle.loads(pickle.dumps(point)) == point
