"""A game's screen as data and small functions: what the one table screen
(``ui/app.py``) asks of a game to draw it and to play it by keys.

A game registers one :class:`GameUI` in ``ui/registry.py`` beside its rules (its
own package ``ui/games/<game>/`` builds it); the screen, the lobby, chat, the
overlays and quitting know no game.  Every field but the name, the view and the
table has a plain default (``ui/plainpages.py``, ``ui/panels.py``), so a game with
nothing of its own to say draws its seats, its score and its pages from what every
game's view and deal summary offer.

The functions take the view (``TableView`` or the game's own subclass, which the
game's :attr:`GameUI.new_view` makes) or a :class:`Seat`: the part of the screen a
game's prompts and keys act on (declared here, so that this module needs nothing
of the screen's).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import TYPE_CHECKING, Any, Generic, Protocol

from prompt_toolkit.filters import Filter, FilterOrBool
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Float

from p2pbelka.cards import Card, Suit
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.table import events as ev
from p2pbelka.table.moves import Move
from p2pbelka.table.verify import VerifyReport
from p2pbelka.ui import keymap, panels, plainpages
from p2pbelka.ui.gamewords import GameWords, by_suit, no_event_words, no_summary_words, no_words
from p2pbelka.ui.view import DealEnd, TableView, TrickView
from p2pbelka.ui.words.cardnames import card_label
from p2pbelka.ui.words.i18n import _

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    from p2pbelka.ui.replayscreen import Replay

    V = TypeVar("V", bound=TableView, default=Any)
else:
    from typing import TypeVar

    V = TypeVar("V", bound=TableView)
"""A game's view (``TableView`` or its own subclass): what its screen functions read.
A bare ``GameUI`` (the registry's, the screen's: any game) is ``GameUI[Any]``; a game's
own is checked against its view, the one ``new_view`` makes (Python 3.11's ``TypeVar``
takes no default, hence the two spellings)."""


class Seat(Protocol):
    """What a game's prompts and keys may do to the screen they are on."""

    @property
    def view(self) -> Any: ...  # the game's own view (``GameUI.new_view``)

    overlay: str | None

    def answer(self, move: Move) -> None:
        """Send ``move`` as the answer to the rules' question (the question closes)."""

    def invalidate(self) -> None: ...

    def select(self, index: int) -> None: ...

    def is_too_small(self) -> bool: ...


@dataclass(frozen=True)
class Key:
    """One key binding as data: the keys (one sequence each), when they apply, what
    they do.  The table, the lobby and every game list theirs; :func:`bind` makes them
    prompt_toolkit's."""

    keys: tuple[str | tuple[str, ...], ...]
    when: FilterOrBool
    do: Callable[[KeyPressEvent], None]
    eager: bool = False


def bind(keys: Iterable[Key]) -> KeyBindings:
    """The keys as prompt_toolkit's; a one-character key also by what its place on the
    keyboard types on the Russian and Kazakh layouts (``т`` for ``n``): a handler that
    reads the key typed reads it through :func:`keymap.latin`."""
    kb = KeyBindings()
    for key in keys:
        for sequence in key.keys:
            chord = sequence if isinstance(sequence, tuple) else (sequence,)
            for typed in product(*((k, *keymap.same_place(k)) for k in chord)):
                kb.add(*typed, filter=key.when, eager=key.eager)(key.do)
    return kb


@dataclass(frozen=True)
class KeyContext:
    """The screen's states a game's keys are filtered by."""

    chatting: Filter  # the chat box has the keys
    at_table: Filter  # the table is shown (or the last trick over it), not a page
    paging: Filter  # a page is shown (the end of a deal, the score sheet, the game's end)
    playing: Filter  # not chatting, quitting, reading the help or in the lobby


Panel = Callable[[V, int], StyleAndTextTuples]


def _no_prompt(seat: Seat) -> StyleAndTextTuples | None:
    return None


def _no_keys(seat: Seat, when: KeyContext) -> Sequence[Key]:
    return ()


def _no_floats(seat: Seat) -> Sequence[Float]:
    return ()


def _nothing(seat: Seat) -> None:
    return None


def _cannot_play(view: TableView, card: Card) -> str:
    return _("{card} cannot be played now: follow the suit led.").format(card=card_label(card))


def _choose_hint() -> str:
    return _("←→/1-9 choose")


def _under_table(view: TableView, width: int) -> StyleAndTextTuples:
    return []


def _no_info(view: TableView) -> str:
    return ""


def _none_dealt(view: TableView) -> int:
    return 0


@dataclass(frozen=True)
class GameUI(Generic[V]):
    """One game on screen.  ``new_view(seats)`` makes the game's view (``TableView`` or
    its own subclass); ``table(view, width, trick)`` draws the seats around the trick
    (the trick given: the last one, over the table)."""

    name: str
    new_view: Callable[[int], V]
    table: Callable[[V, int, TrickView | None], StyleAndTextTuples]
    title: Callable[[V], str] = plainpages.title_line
    info: Callable[[V], str] = _no_info  # the line under the table
    under_table: Panel[V] = _under_table  # the line above the hand
    score: Panel[V] = panels.score_lines
    seats: Panel[V] = panels.seats_lines
    deal_end: Callable[[V, DealEnd, int], StyleAndTextTuples] = plainpages.deal_end_lines
    deal_title: Callable[[V, DealEnd], str] = plainpages.summary_title
    sheet: Callable[[V], StyleAndTextTuples] = plainpages.score_sheet_lines
    game_end: Callable[[V], StyleAndTextTuples] = plainpages.game_end_lines
    help_text: Callable[[], str] = plainpages.help_text
    choose_hint: Callable[[], str] = _choose_hint
    cannot_play: Callable[[V, Card], str] = _cannot_play
    """Why the card the player chose may not be played now (the view, the card)."""
    prompt: Callable[[Seat], StyleAndTextTuples | None] = _no_prompt
    """The status line while the game asks its own questions (None: the table's line)."""
    keys: Callable[[Seat, KeyContext], Sequence[Key]] = _no_keys
    """The game's keys; where the table's apply too, the game's win."""
    floats: Callable[[Seat], Sequence[Float]] = _no_floats  # the game's dialogs
    on_refresh: Callable[[Seat], None] = _nothing  # after each event
    paced: tuple[type[ev.Event], ...] = field(default=())
    """Other players' events shown at the pace of their cards (calls, declarations)."""
    replay: Callable[[VerifyReport, int], Replay] | None = None
    """The replay of a verified game from a deal (``ui/replay.py``'s ``Replay``)."""
    dealt: Callable[[V], int] = _none_dealt
    """How many cards each seat has been dealt so far in the deal in progress: a
    watcher's screen draws that many backs per seat, less the cards it played."""
    event_line: Callable[[ev.GameEvent, Sequence[str]], str | None] = no_event_words
    """A line for one of the game's own events in the screen's language, for the text
    logs, its seats named from the names given (None: an event it does not know, shown
    as its record)."""
    summary_line: Callable[[DealSummary, Sequence[str]], str | None] = no_summary_words
    """What a deal came to in words, for the text logs' "verified" line, its seats and
    sides named from the names given (None: the summary's own ``log_line``)."""
    sort_hand: Callable[[list[Card], Suit | None], list[Card]] = by_suit
    """A hand in the order the screen shows it (the trump given, or None: not known yet),
    for the text logs."""
    words: Callable[[], Mapping[str, str]] = no_words
    """The game's name and rules in the screen's language: "" the game, "NAME" a rule,
    "NAME=VALUE" one of its values (``ui/words/rulenames.py``; what is missing is shown as the
    wire has it)."""

    def log_words(self) -> GameWords:
        """The part of this screen the text logs use (a game registered with its screen
        alone gives its words this way)."""
        return GameWords(self.name, self.event_line, self.summary_line, self.sort_hand, self.words)
