"""What one sync did: the counts ``earmark sync`` prints (and ``--json`` gives), and the sentences to show."""

from __future__ import annotations

from dataclasses import field

from earmark.core.plurals import counted
from earmark.core.records import record


@record
class SyncReport:
    """What one sync did, and the sentences to show (``errors``: it stopped there; ``warnings``: it went on)."""

    subscriptions_added: int = 0
    subscriptions_removed: int = 0
    subscriptions_sent: int = 0
    actions_sent: int = 0
    actions_received: int = 0
    positions_applied: int = 0
    earlier_applied: int = 0
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    items_changed: set[int] = field(default_factory=set)

    @property
    def sentence(self) -> str:
        """What ``earmark sync`` prints: every count, each formatted alike."""
        parts = [f"{counted(self.subscriptions_added, 'subscription')} added and {self.subscriptions_removed:,} "
                 "removed here",
                 f"{counted(self.subscriptions_sent, 'subscription change')} and "
                 f"{counted(self.actions_sent, 'episode change')} sent",
                 f"{counted(self.actions_received, 'episode action')} received, {self.positions_applied:,} of those "
                 "applied"]
        if self.earlier_applied:
            parts.append(f"{counted(self.earlier_applied, 'earlier action')} applied to episodes new here")
        return "; ".join(parts) + "."

    def as_json(self) -> dict[str, object]:
        """The ``earmark sync --json`` object."""
        return {"subscriptions_added": self.subscriptions_added, "subscriptions_removed": self.subscriptions_removed,
                "subscriptions_sent": self.subscriptions_sent, "actions_sent": self.actions_sent,
                "actions_received": self.actions_received, "positions_applied": self.positions_applied,
                "earlier_applied": self.earlier_applied,
                "errors": list(self.errors), "warnings": list(self.warnings)}
