"""Names that mean the same thing (PT2 ~ PyTorch 2, Inductor ~ TorchInductor, FSDP ~ Fully Sharded Data Parallel):
a maintained table of the common ones (resources/text/aliases.txt), plus what a library teaches."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from earmark.core.package_data import resource_folder
from earmark.core.text.acronyms import acronym_definitions
from earmark.core.text.words import Word

TABLE = "aliases.txt"


def name_of(text: str) -> str:
    """How a name is kept and looked up: lower case, single spaces between words (``PyTorch  2`` → ``pytorch 2``)."""
    return " ".join(text.lower().split())


class Aliases:
    """Groups of names that mean the same thing. The first name given for a group is its canonical name.

    ``names(name)`` gives every name of the group (the canonical one first), ``canonical(name)`` the group's
    first name; an unknown name is a group of its own. Names are compared as ``name_of`` keeps them.
    """

    def __init__(self, groups: Iterable[Iterable[str]] = ()) -> None:
        self._group: dict[str, list[str]] = {}
        for group in groups:
            self.add(*group)

    def add(self, *names: str) -> None:
        """Say that ``names`` mean the same; groups they already belong to are joined (the earlier canonical
        name stays first)."""
        merged: list[str] = []
        for name in (name_of(each) for each in names):
            if not name:
                continue
            for known in self._group.get(name, [name]):
                if known not in merged:
                    merged.append(known)
        for name in merged:
            self._group[name] = merged

    def names(self, name: str) -> tuple[str, ...]:
        """Every name meaning the same as ``name``, its group's canonical name first (``(name,)`` if unknown)."""
        key = name_of(name)
        return tuple(self._group.get(key, [key]))

    def canonical(self, name: str) -> str:
        """The name ``name``'s group is kept under."""
        return self.names(name)[0]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name_of(name) in self._group

    def groups(self) -> list[tuple[str, ...]]:
        """Every group of two names or more, each once."""
        seen: set[int] = set()
        found = []
        for group in self._group.values():
            if id(group) not in seen:
                seen.add(id(group))
                found.append(tuple(group))
        return found

    def copy(self) -> Aliases:
        return Aliases(self.groups())

    def learn(self, text: str) -> list[tuple[str, str]]:
        """Add the acronyms ``text`` defines beside their expansion (see acronym_definitions); returns them."""
        found = acronym_definitions(text)
        for acronym, expansion in found:
            self.add(acronym, expansion)
        return found


def maintained() -> Aliases:
    """The maintained table of common aliases (a copy: add to it freely)."""
    return _maintained().copy()


@lru_cache(maxsize=1)
def _maintained() -> Aliases:
    text = (resource_folder() / "text" / TABLE).read_text(encoding="utf-8")
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return Aliases(line.split("=") for line in lines if line)


def cooccurring_aliases(documents: Iterable[Iterable[Word]], min_together: int = 2,
                        min_share: float = 0.5) -> list[tuple[str, str]]:
    """(short, compound) pairs where a compound name's last part stands for it: TorchInductor and Inductor, when
    the part alone mostly appears in documents that also name the compound (in ``min_together`` documents at
    least, and in ``min_share`` of the documents that have the part alone)."""
    alone: Counter[str] = Counter()
    together: Counter[tuple[str, str]] = Counter()
    for document in documents:
        seen = {each.whole: each for each in document}
        alone.update(seen.keys())
        for whole, each in seen.items():
            head = each.parts[-1] if len(each.parts) > 1 else ""
            if head.isalpha() and len(head) > 2 and head in seen and each.whole.isalnum():
                together[(head, whole)] += 1
    return sorted(pair for pair, count in together.items()
                  if count >= min_together and count >= min_share * alone[pair[0]])
