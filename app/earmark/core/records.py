"""``record``: Earmark's data classes. A ``dataclass(slots=True)`` whose ``__eq__``, ``__repr__`` and ``__hash__``
are shared by every record instead of compiled for each class.

Why: up to Python 3.12, ``dataclass`` compiles each method it writes from source, one ``exec`` per method (~0.1 ms
each). A start made 30 data classes before its first frame (the library's items, filters, sidebar, actions, places,
settings), whose equality and text forms alone were ~7 ms of it. ``__init__`` is still written per class: it is
the one a record calls often (30,000 times in a first import), so it keeps dataclass's fast, field-by-field code.

The shared methods answer as dataclass's would: equal when of the same class with equal compared fields (those
without ``compare=False``), the text ``Name(field=value, ...)``, and for a frozen record the hash of those values; an
unfrozen record is not hashable.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, TypeVar, cast, dataclass_transform, overload

_T = TypeVar("_T")


def _no_fields(_record: object) -> tuple[()]:
    return ()


def _values(record: Any) -> Any:
    return type(record).__record_values__(record)


def _eq(self: Any, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return bool(_values(self) == _values(other))


@reprlib.recursive_repr()
def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in type(self).__record_shown__)
    return f"{type(self).__qualname__}({shown})"


def _hash(self: Any) -> int:
    return hash(_values(self))


def _getter(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The compared values of a record, as one tuple, as dataclass compares them (a tuple takes an identical value
    as equal: a NaN field compares equal to itself, as dataclass's ``(self.x,) == (other.x,)`` does)."""
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda record: (one(record),)
    return attrgetter(*names) if names else _no_fields


@overload
def record(cls: type[_T], /) -> type[_T]: ...


@overload
def record(*, frozen: bool = False) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(eq_default=True)
def record(cls: type[_T] | None = None, /, *, frozen: bool = False) -> type[_T] | Callable[[type[_T]], type[_T]]:
    """``@record`` or ``@record(frozen=True)``: the class as a slotted dataclass with the shared methods."""

    def make(cls: type[_T]) -> type[_T]:
        made = dataclass(slots=True, frozen=frozen, repr=False, eq=False)(cls)
        described = fields(cast(Any, made))
        shared = {"__record_values__": staticmethod(_getter([field.name for field in described if field.compare])),
                  "__record_shown__": tuple(field.name for field in described if field.repr),
                  "__eq__": _eq, "__repr__": _repr, "__hash__": _hash if frozen else None}
        for name, value in shared.items():
            setattr(made, name, value)
        return made

    return make if cls is None else make(cls)
