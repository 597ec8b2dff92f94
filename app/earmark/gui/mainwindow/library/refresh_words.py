"""What the window says when a refresh or an import ends, in its own words (the command line's advice, such as
"--source ID", is not the window's)."""

from __future__ import annotations

from earmark.core.plurals import counted
from earmark.gui.feed_refresh import RefreshSummary


def refreshed_sentence(summary: RefreshSummary, left_out: int) -> str:
    """The status bar's sentence for ``summary``; ``left_out`` feeds were not due (gone, or waiting after
    failures) and were not checked."""
    if summary.cancelled:
        done = "Import cancelled" if summary.importing else "Refresh cancelled"
    else:
        done = "Imported" if summary.importing else "Refreshed"
    failed = f"; {summary.failed} failed (see Subscriptions)" if summary.failed else ""
    before = f" ({summary.already_subscribed} subscribed already)" if summary.already_subscribed else ""
    waiting = (f" {counted(left_out, 'feed')} waiting after failures or gone were left out (F5 checks every feed; "
               "see Subscriptions)." if left_out else "")
    return (f"{done}: {summary.checked} of {counted(summary.total, 'feed')} checked{before}, "
            f"{counted(summary.new, 'new item')}{failed}.{waiting}")
