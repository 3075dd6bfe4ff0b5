"""A one-line text progress bar for long maps, drawn on standard error.

Stage: distribute. Input: how many calls a map has, then how many have finished as batches
complete. Output: ``f.map [##########          ] 5000/10000 calls, 3.2 s`` redrawn in place.
By default it appears only on a terminal and only once a map has run for a second, so short maps
and logs stay clean; ``progress=True`` draws it from the start on any stream.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

_WIDTH = 30
_AUTO_DELAY = 1.0  # seconds before an automatic bar appears
_REDRAW = 0.1  # seconds between redraws


class ProgressBar:
    """Progress of ``total`` calls; ``advance`` as they finish, ``close`` at the end.

    Args:
      label: what runs, e.g. ``f.map``.
      total: the number of calls.
      enabled: True to draw from the start, False never, None on a terminal after a second.
      stream: where to draw (standard error by default).
    """

    def __init__(self, label: str, total: int, enabled: bool | None, stream: TextIO | None = None):
        self.label = label
        self.total = total
        self.stream = stream or sys.stderr
        if enabled is None:
            self.enabled, self.delay = self.stream.isatty(), _AUTO_DELAY
        else:
            self.enabled, self.delay = enabled, 0.0
        self.done = 0
        self.start = time.monotonic()
        self.drawn_at: float | None = None

    def advance(self, count: int) -> None:
        """Records ``count`` more finished calls, redrawing the bar if it is due."""
        self.done += count
        now = time.monotonic()
        if not self.enabled or now - self.start < self.delay:
            return
        if self.done < self.total and self.drawn_at is not None and now - self.drawn_at < _REDRAW:
            return
        self.drawn_at = now
        filled = _WIDTH * self.done // max(self.total, 1)
        bar = "#" * filled + " " * (_WIDTH - filled)
        elapsed = now - self.start
        self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total} calls, {elapsed:.1f} s")
        self.stream.flush()

    def close(self) -> None:
        """Ends the bar's line, if a bar was drawn."""
        if self.drawn_at is not None:
            self.stream.write("\n")
            self.stream.flush()
