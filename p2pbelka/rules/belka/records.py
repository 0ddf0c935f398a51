"""JSON game records: write one from a game, read and check one, report it (the referee).

The format (docs/records.md)::

    {"game": "belka",
     "rules": {"preset": "classic", "options": {"eggs": "double"}},
     "first_dealer": 0,
     "deals": [{"hands": [["JC", ...8 cards], [...], [...], [...]],
                "redeal_claim": 2,            # only on a deal that was re-dealt; no plays then
                "eggs_choice": "plus4",       # only where the winners had to choose
                "plays": ["AS", ...]}]}       # cards in play order; seats follow from the rules

:func:`parse_record` raises :class:`RecordError` (with a JSON path such as
``deals[3].hands[2][5]``) for a malformed record; :func:`replay_record` raises
:class:`~p2pbelka.rules.common.errors.RuleViolation` for an illegal action.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from p2pbelka.cards import CARDS, Card, from_mask
from p2pbelka.rules.belka.deal import RedealClaim
from p2pbelka.rules.belka.game import EGGS_CHOICES, DealResult, EggsChoice, GameState
from p2pbelka.rules.belka.options import Options, options_from
from p2pbelka.rules.common import errors as E
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.rules.common.options import OptionError
from p2pbelka.rules.common.play import Play
from p2pbelka.rules.common.recordio import RecordError
from p2pbelka.rules.common.recordio import card as _card
from p2pbelka.rules.common.recordio import expect as _expect
from p2pbelka.rules.common.recordio import seat as _seat


@dataclass(frozen=True, slots=True)
class RecordDeal:
    hands: tuple[int, int, int, int]
    plays: tuple[Card, ...]
    redeal_claim: int | None = None
    eggs_choice: str | None = None


@dataclass(frozen=True, slots=True)
class Record:
    options: Options
    first_dealer: int
    deals: tuple[RecordDeal, ...]


# -- writing ----------------------------------------------------------------------


def game_to_record(game: GameState) -> dict[str, object]:
    """The record of a game's finished deals (every hand must be known)."""
    deals: list[dict[str, object]] = []
    for result in game.history:
        if any(h is None for h in result.hands):
            raise ValueError(f"deal {result.number}: a record needs every hand")
        entry: dict[str, object] = {
            "hands": [[str(c) for c in _dealt_order(h)] for h in result.hands if h is not None]
        }
        if result.redeal_claim is not None:
            entry["redeal_claim"] = result.redeal_claim
        if result.eggs_choice is not None:
            entry["eggs_choice"] = result.eggs_choice
        entry["plays"] = [str(CARDS[i]) for i in result.plays]
        deals.append(entry)
    return {
        "game": "belka",
        "rules": {"preset": game.options.preset, "options": game.options.to_dict()},
        "first_dealer": game.first_dealer,
        "deals": deals,
    }


def finished_to_record(game: GameState) -> dict[str, object]:
    """The record of the finished deals (the game's record: one in progress is never written)."""
    return game_to_record(game)


def dump_record(game: GameState) -> str:
    return json.dumps(game_to_record(game), indent=1, ensure_ascii=False)


def _dealt_order(mask: int) -> list[Card]:
    return from_mask(mask)


# -- reading ----------------------------------------------------------------------


def parse_record(data: object) -> Record:
    """Check a record's shape (decoded JSON); raises :class:`RecordError`."""
    obj = _expect(data, dict, "", "an object")
    if obj.get("game") != "belka":
        raise RecordError("game", f'expected "belka" or "belot", got {obj.get("game")!r}')
    rules = _expect(obj.get("rules", {}), dict, "rules", "an object")
    preset = rules.get("preset", "classic")
    overrides = _expect(rules.get("options", {}), dict, "rules.options", "an object")
    try:
        options_from(preset, {})
    except OptionError as exc:
        raise RecordError("rules.preset", str(exc)) from None
    for name, value in overrides.items():
        try:
            options_from(preset, {name: value})
        except OptionError as exc:
            raise RecordError(f"rules.options.{name}", str(exc)) from None
    options = options_from(preset, overrides)
    first_dealer = _seat(obj.get("first_dealer"), "first_dealer")
    raw_deals = _expect(obj.get("deals"), list, "deals", "a list")
    deals = tuple(_parse_deal(d, f"deals[{i}]") for i, d in enumerate(raw_deals))
    return Record(options, first_dealer, deals)


def _parse_deal(data: object, path: str) -> RecordDeal:
    obj = _expect(data, dict, path, "an object")
    for key in obj:
        if key not in ("hands", "plays", "redeal_claim", "eggs_choice"):
            raise RecordError(f"{path}.{key}", "unknown field")
    hands_raw = _expect(obj.get("hands"), list, f"{path}.hands", "a list of four hands")
    if len(hands_raw) != 4:
        raise RecordError(f"{path}.hands", f"four hands expected, got {len(hands_raw)}")
    seen = 0
    hands: list[int] = []
    for s, hand_raw in enumerate(hands_raw):
        hpath = f"{path}.hands[{s}]"
        cards = _expect(hand_raw, list, hpath, "a list of 8 cards")
        if len(cards) != 8:
            raise RecordError(hpath, f"8 cards expected, got {len(cards)}")
        mask = 0
        for k, text in enumerate(cards):
            card = _card(text, f"{hpath}[{k}]")
            if seen & card.bit:
                raise RecordError(f"{hpath}[{k}]", f"{card} is dealt twice")
            seen |= card.bit
            mask |= card.bit
        hands.append(mask)
    plays_raw = _expect(obj.get("plays", []), list, f"{path}.plays", "a list of cards")
    if len(plays_raw) > 32:
        raise RecordError(f"{path}.plays", f"at most 32 plays, got {len(plays_raw)}")
    plays = tuple(_card(t, f"{path}.plays[{k}]") for k, t in enumerate(plays_raw))
    claim = obj.get("redeal_claim")
    if claim is not None:
        claim = _seat(claim, f"{path}.redeal_claim")
    choice = obj.get("eggs_choice")
    if choice is not None and choice not in EGGS_CHOICES:
        raise RecordError(f"{path}.eggs_choice", f'expected "plus4" or "title", got {choice!r}')
    return RecordDeal((hands[0], hands[1], hands[2], hands[3]), plays, claim, choice)


# -- replay and report ------------------------------------------------------------


def replay_record(record: Record) -> GameState:
    """Every action of the record through the engine (strict mode).

    The last deal may be unfinished (a game in progress): it is left in
    ``GameState.deal``.  Raises :class:`RuleViolation` at the first illegal action.
    """
    game = GameState.new(record.options, record.first_dealer)
    last = len(record.deals) - 1
    for i, rd in enumerate(record.deals):
        game = game.start_deal(rd.hands)
        if rd.redeal_claim is not None:
            game = game.apply(RedealClaim(rd.redeal_claim))
        for card in rd.plays:
            deal = game.deal
            assert deal is not None
            if deal.turn is None:
                raise RuleViolation(
                    E.DEAL_OVER, "a card played after the deal ended", deal=deal.number, card=card
                )
            game = game.apply(Play(deal.turn, card))
        assert game.deal is not None
        if not game.deal.finished:
            if i == last and rd.eggs_choice is None:
                break
            raise RuleViolation(
                E.DEAL_NOT_FINISHED,
                f"only {len(rd.plays)} of 32 cards played",
                deal=game.deal.number,
            )
        game = game.finish_deal()
        if rd.eggs_choice is not None:
            if game.pending_choice is None:
                raise RuleViolation(
                    E.NO_CHOICE_PENDING, "nobody had to choose after this deal", deal=i
                )
            seat = game.choice_seat
            assert seat is not None
            game = game.apply(EggsChoice(seat, rd.eggs_choice))
    return game


def report(game: GameState) -> dict[str, object]:
    """What the referee prints: every deal's trump, tricks, points and the score."""
    deals: list[dict[str, object]] = [_deal_report(r) for r in game.history]
    if game.deal is not None:
        d = game.deal
        deals.append(
            {
                "number": d.number,
                "dealer": d.dealer,
                "trump": d.trump.letter,
                "trump_team": d.trump_team,
                "finished": False,
                "tricks": [_trick(t.leader, t.cards, t.winner) for t in d.tricks],
                "card_points": list(d.card_points),
            }
        )
    return {
        "game": "belka",
        "rules": {"preset": game.options.preset, "options": game.options.to_dict()},
        "deals": deals,
        "score": list(game.score),
        "winner": game.winner,
        "games_won": list(game.games_won),
        "titles": [list(t) for t in game.titles],
        "pending_choice": game.pending_choice,
    }


def _trick(leader: int, cards: tuple[Card, ...], winner: int) -> dict[str, object]:
    return {"leader": leader, "cards": [str(c) for c in cards], "winner": winner}


def _deal_report(r: DealResult) -> dict[str, object]:
    out: dict[str, object] = {
        "number": r.number,
        "dealer": r.dealer,
        "trump": r.trump.letter,
        "trump_team": r.trump_team,
        "jc_holder": r.jc_holder,
        "finished": True,
    }
    if r.redeal_claim is not None:
        out["redeal_claim"] = r.redeal_claim
    out["tricks"] = [_trick(t.leader, t.cards, t.winner) for t in r.tricks]
    out["card_points"] = list(r.card_points)
    out["deal_winner"] = r.winner
    if r.bonus is not None:
        out["bonus"] = r.bonus
    if r.eggs_choice is not None:
        out["eggs_choice"] = r.eggs_choice
    out["awarded"] = list(r.awarded)
    out["score"] = list(r.score)
    if r.notes:
        out["notes"] = list(r.notes)
    return out
