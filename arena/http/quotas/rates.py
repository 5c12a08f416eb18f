"""Rates of the quotas: ``N/period``, such as ``20/hour`` or ``10/15m``.

Apart from the quotas themselves (``throttles``), so that the settings can check every
rate at start-up without importing the cache and the request machinery.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])[a-z]*\s*$")


@dataclass(frozen=True)
class Rate:
    """At most ``count`` actions in any ``seconds``-long window."""

    count: int
    seconds: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``Rate.parse("20/hour")`` is Rate(20, 3600); ``Rate.parse("10/15m")`` Rate(10, 900)."""
        match = _RATE.match(text.lower())
        if match is None:
            raise ValueError(f"a rate is N/period, such as 20/hour or 10/15m, not {text!r}")
        count, multiple, unit = match.groups()
        if multiple and int(multiple) == 0:
            raise ValueError(f"a rate's period cannot be zero long: {text!r}")
        return cls(int(count), int(multiple or 1) * _UNITS[unit])

    def period(self) -> str:
        """The window in words: ``hour``, ``15 minutes``."""
        for unit, seconds in (("day", 86400), ("hour", 3600), ("minute", 60)):
            if self.seconds == seconds:
                return unit
            if self.seconds % seconds == 0:
                return f"{self.seconds // seconds} {unit}s"
        return f"{self.seconds} seconds"
