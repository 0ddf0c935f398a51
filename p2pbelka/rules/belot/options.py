"""Table options for Belot, switchable by name with string values (like Belka's).

::

    belot_options({"hanging_twice": "one_each", "four_sevens": "50"})

Unknown names and values raise :class:`~p2pbelka.rules.belka.options.OptionError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from p2pbelka.rules.belot import core
from p2pbelka.rules.common.options import OptionError

HANGING_TWICE: Final = ("together", "one_each")
DEFAULTS: Final[Mapping[str, str]] = {
    # Two hanging baits in a row: both sums to the next top seat, or one sum per deal.
    "hanging_twice": "together",
    # Four eights / four sevens: points "0".."200"; "0" means not declarable.
    "four_eights": "0",
    "four_sevens": "0",
}
MAX_FOUR: Final = 200


@dataclass(frozen=True, slots=True)
class BelotOptions:
    """One table's Belot rules.  Build with :func:`belot_options`; fields hold strings."""

    hanging_twice: str = "together"
    four_eights: str = "0"
    four_sevens: str = "0"

    def __post_init__(self) -> None:
        if self.hanging_twice not in HANGING_TWICE:
            raise OptionError(
                f"option hanging_twice: unknown value {self.hanging_twice!r}"
                f" (expected one of {', '.join(HANGING_TWICE)})"
            )
        for name in ("four_eights", "four_sevens"):
            _four(name, getattr(self, name))

    @property
    def fours(self) -> tuple[int, ...]:
        """Values of fours by rank index (see :data:`core.FOUR_VALUES`)."""
        return core.four_values(int(self.four_eights), int(self.four_sevens))

    @property
    def together(self) -> bool:
        return self.hanging_twice == "together"

    def to_dict(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in DEFAULTS}


def belot_options(overrides: Mapping[str, object] | None = None) -> BelotOptions:
    """The default options with ``overrides`` (name -> string value) applied."""
    values = dict(DEFAULTS)
    for name, value in (overrides or {}).items():
        if name not in DEFAULTS:
            raise OptionError(f"unknown option {name!r} (expected one of {', '.join(DEFAULTS)})")
        if not isinstance(value, str):
            raise OptionError(f"option {name}: value must be a string, got {value!r}")
        values[name] = value
    return BelotOptions(**values)


def _four(name: str, value: str) -> None:
    if (
        not (value.isascii() and value.isdigit() and str(int(value)) == value)
        or int(value) > MAX_FOUR
    ):
        raise OptionError(
            f'option {name}: expected a whole number of points from "0" to "{MAX_FOUR}",'
            f" got {value!r}"
        )
