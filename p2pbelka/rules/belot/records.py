"""Belot game records: write one from a game, read and check one, report it (the referee).

The format (docs/records.md)::

    {"game": "belot", "players": 3,
     "rules": {"options": {"hanging_twice": "together"}},
     "first_dealer": 0,
     "deals": [{"hands": [[6 cards], ...by seat],
                "turned": "KS",
                "bids": ["pass", "pass", "pass", "H"],
                "extra": [[3 cards], ...by seat],          # absent on a void deal
                "declarations": [{"seat": 1, "trick": 0, "cards": ["7H", "8H", "9H"]}],
                "plays": ["7H", ...],
                "claim": {"seat": 2, "trick": 5}}]}       # optional; ends the game

:func:`parse_record` raises :class:`~p2pbelka.rules.common.recordio.RecordError` with a
JSON path; :func:`replay_record` raises
:class:`~p2pbelka.rules.common.errors.RuleViolation` at the first illegal action.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from p2pbelka.cards import CARDS, Card, from_mask
from p2pbelka.rules.belot.deal import Bid, Claim, DealState, Declare
from p2pbelka.rules.belot.game import GAME, BelotGame, DealResult
from p2pbelka.rules.belot.options import BelotOptions, belot_options
from p2pbelka.rules.belot.summary import summarize
from p2pbelka.rules.common import errors as E
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.rules.common.options import OptionError
from p2pbelka.rules.common.play import Play
from p2pbelka.rules.common.recordio import RecordError, card, cards, expect, seat

DEAL_FIELDS = ("hands", "turned", "bids", "extra", "declarations", "plays", "claim")
CALLS = ("play", "pass", "C", "D", "H", "S")


@dataclass(frozen=True, slots=True)
class RecordDeclaration:
    seat: int
    trick: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class RecordDeal:
    hands: tuple[int, ...]
    turned: Card
    bids: tuple[str, ...]
    extra: tuple[int, ...] | None
    declarations: tuple[RecordDeclaration, ...]
    plays: tuple[Card, ...]
    claim: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Record:
    options: BelotOptions
    players: int
    first_dealer: int
    deals: tuple[RecordDeal, ...]


# -- writing ----------------------------------------------------------------------


def _names(mask: int) -> list[str]:
    return [str(c) for c in from_mask(mask)]


def _deal_entry(deal: DealState) -> dict[str, object]:
    if any(h is None for h in deal.dealt) or (
        deal.extra is not None and any(h is None for h in deal.extra)
    ):
        raise ValueError(f"deal {deal.number}: a record needs every hand")
    entry: dict[str, object] = {
        "hands": [_names(h or 0) for h in deal.dealt],
        "turned": str(deal.turned),
        "bids": list(deal.bids),
    }
    if deal.extra is not None:
        entry["extra"] = [_names(h or 0) for h in deal.extra]
        entry["declarations"] = [
            {"seat": d.seat, "trick": d.trick, "cards": _names(d.mask)} for d in deal.declarations
        ]
        entry["plays"] = [str(CARDS[i]) for i in deal.plays]
    if deal.claim is not None:
        entry["claim"] = {"seat": deal.claim, "trick": len(deal.tricks) - 1}
    return entry


def game_to_record(game: BelotGame) -> dict[str, object]:
    """The record of a game's deals, the one in progress included (every hand known)."""
    deals = [_deal_entry(r.deal) for r in game.history]
    if game.deal is not None:
        deals.append(_deal_entry(game.deal))
    return {
        "game": GAME,
        "players": game.players,
        "rules": {"options": game.options.to_dict()},
        "first_dealer": game.first_dealer,
        "deals": deals,
    }


def finished_to_record(game: BelotGame) -> dict[str, object]:
    """The record of the finished deals alone (a deal cut short holds unknown hands)."""
    return game_to_record(replace(game, deal=None))


def dump_record(game: BelotGame) -> str:
    return json.dumps(game_to_record(game), indent=1, ensure_ascii=False)


# -- reading ----------------------------------------------------------------------


def parse_record(data: object) -> Record:
    """Check a record's shape (decoded JSON); raises :class:`RecordError`."""
    obj = expect(data, dict, "", "an object")
    if obj.get("game") != "belot":
        raise RecordError("game", f'expected "belot", got {obj.get("game")!r}')
    players = expect(obj.get("players"), int, "players", "2 or 3")
    if players not in (2, 3):
        raise RecordError("players", f"expected 2 or 3, got {players}")
    rules = expect(obj.get("rules", {}), dict, "rules", "an object")
    overrides = expect(rules.get("options", {}), dict, "rules.options", "an object")
    for name, value in overrides.items():
        try:
            belot_options({name: value})
        except OptionError as exc:
            raise RecordError(f"rules.options.{name}", str(exc)) from None
    first_dealer = seat(obj.get("first_dealer"), "first_dealer", players)
    raw_deals = expect(obj.get("deals"), list, "deals", "a list")
    deals = tuple(_parse_deal(d, f"deals[{i}]", players) for i, d in enumerate(raw_deals))
    return Record(belot_options(overrides), players, first_dealer, deals)


def _hands(value: object, path: str, players: int, size: int, taken: int) -> tuple[int, list[int]]:
    rows = expect(value, list, path, f"a list of {players} hands")
    if len(rows) != players:
        raise RecordError(path, f"{players} hands expected, got {len(rows)}")
    masks = []
    for s, row in enumerate(rows):
        before = taken
        taken, _ = cards(row, f"{path}[{s}]", size, taken)
        masks.append(taken ^ before)
    return taken, masks


def _parse_deal(data: object, path: str, players: int) -> RecordDeal:
    obj = expect(data, dict, path, "an object")
    for key in obj:
        if key not in DEAL_FIELDS:
            raise RecordError(f"{path}.{key}", "unknown field")
    taken, hands = _hands(obj.get("hands"), f"{path}.hands", players, 6, 0)
    turned = card(obj.get("turned"), f"{path}.turned")
    if taken & turned.bit:
        raise RecordError(f"{path}.turned", f"{turned} is dealt to a seat too")
    taken |= turned.bit
    raw_bids = expect(obj.get("bids", []), list, f"{path}.bids", "a list of calls")
    for k, call in enumerate(raw_bids):
        if call not in CALLS:
            raise RecordError(
                f"{path}.bids[{k}]", f'expected "play", "pass" or a suit letter, got {call!r}'
            )
    extra = None
    if "extra" in obj:
        _, extra = _hands(obj["extra"], f"{path}.extra", players, 3, taken)
    declarations = tuple(
        _parse_declaration(d, f"{path}.declarations[{k}]", players)
        for k, d in enumerate(
            expect(obj.get("declarations", []), list, f"{path}.declarations", "a list")
        )
    )
    raw_plays = expect(obj.get("plays", []), list, f"{path}.plays", "a list of cards")
    if len(raw_plays) > 9 * players:
        raise RecordError(f"{path}.plays", f"at most {9 * players} plays, got {len(raw_plays)}")
    plays = tuple(card(t, f"{path}.plays[{k}]") for k, t in enumerate(raw_plays))
    claim = None
    if "claim" in obj:
        cobj = expect(obj["claim"], dict, f"{path}.claim", "an object")
        claim = (
            seat(cobj.get("seat"), f"{path}.claim.seat", players),
            _trick(cobj.get("trick"), f"{path}.claim.trick"),
        )
    return RecordDeal(
        tuple(hands),
        turned,
        tuple(raw_bids),
        None if extra is None else tuple(extra),
        declarations,
        plays,
        claim,
    )


def _trick(value: object, path: str) -> int:
    number = expect(value, int, path, "a trick number 0..8")
    if not 0 <= number <= 8:
        raise RecordError(path, f"expected a trick number 0..8, got {number}")
    return int(number)


def _parse_declaration(data: object, path: str, players: int) -> RecordDeclaration:
    obj = expect(data, dict, path, "an object")
    who = seat(obj.get("seat"), f"{path}.seat", players)
    trick = _trick(obj.get("trick"), f"{path}.trick")
    _, shown = cards(obj.get("cards"), f"{path}.cards", None, 0, "is shown twice")
    return RecordDeclaration(who, trick, tuple(shown))


# -- replay -----------------------------------------------------------------------


def replay_record(record: Record) -> BelotGame:
    """Every action of the record through the engine.

    The last deal may be unfinished (a game in progress): it is left in
    ``BelotGame.deal``.  Raises :class:`RuleViolation` at the first illegal action.
    """
    game = BelotGame.new(record.options, record.players, record.first_dealer)
    last = len(record.deals) - 1
    for i, rd in enumerate(record.deals):
        if game.finished:
            raise RuleViolation(E.GAME_OVER, f"seat {game.winner} has won the game", deal=i)
        game = _replay_deal(game.start_deal(rd.hands, rd.turned), rd)
        deal = game.deal
        assert deal is not None
        if not deal.finished:
            if i == last:
                break
            raise RuleViolation(
                E.DEAL_NOT_FINISHED, f"the deal stops in its {deal.phase} phase", deal=i
            )
        game = game.finish_deal()
    return game


def _replay_deal(game: BelotGame, rd: RecordDeal) -> BelotGame:
    for call in rd.bids:
        deal = game.deal
        assert deal is not None
        turn = deal.turn
        if turn is None:
            raise RuleViolation(
                E.NOT_BIDDING, "a call after the bidding ended", deal=deal.number, call=call
            )
        game = game.apply(Bid(turn, call))
    deal = game.deal
    assert deal is not None
    if rd.extra is None:
        if rd.declarations or rd.plays or rd.claim is not None:
            why = "the deal is void" if deal.void else "the three more cards are missing"
            raise RuleViolation(E.NO_EXTRA, f"no play: {why}", deal=deal.number)
        return game
    if deal.phase != "extra":
        raise RuleViolation(
            E.NO_EXTRA,
            "extra cards on a void deal" if deal.void else "extra cards before bidding ended",
            deal=deal.number,
        )
    game = game.deal_extra(rd.extra)
    pending = list(rd.declarations)
    for played in rd.plays:
        game = _declare_due(game, pending)
        deal = game.deal
        assert deal is not None
        turn = deal.turn
        if turn is None:
            raise RuleViolation(
                E.DEAL_OVER,
                "a card played after the deal ended",
                deal=deal.number,
                card=played,
            )
        game = game.apply(Play(turn, played))
    game = _declare_due(game, pending)
    deal = game.deal
    assert deal is not None
    if rd.claim is not None:
        claimer, trick = rd.claim
        if trick != len(deal.tricks) - 1 or deal.trick:
            raise RuleViolation(
                E.CLAIM_MOMENT,
                f"a claim after trick {trick + 1} (claim.trick {trick}), but the plays stop"
                f" after trick {len(deal.tricks)}" + (" and a card more" if deal.trick else ""),
                deal=deal.number,
                trick=trick,
                seat=claimer,
            )
        game = game.apply(Claim(claimer))
    if pending:
        d = pending[0]
        raise RuleViolation(
            E.DECLARE_MOMENT,
            f"a declaration at the lead of trick {d.trick + 1} (trick {d.trick} in the record) was"
            f" never due (declarations go in the order made, by the seat leading that trick)",
            deal=deal.number,
            trick=d.trick,
            seat=d.seat,
        )
    return game


def _declare_due(game: BelotGame, pending: list[RecordDeclaration]) -> BelotGame:
    """Apply the next declarations while they are for the trick about to be led."""
    deal = game.deal
    assert deal is not None
    while pending and deal.at_lead and pending[0].trick == len(deal.tricks):
        d = pending.pop(0)
        game = game.apply(Declare(d.seat, d.cards))
        deal = game.deal
        assert deal is not None
    return game


# -- the referee's report -----------------------------------------------------------


def _tricks(deal: DealState) -> list[dict[str, object]]:
    return [
        {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}
        for t in deal.tricks
    ]


def _deal_report(r: DealResult) -> dict[str, object]:
    """A finished deal as the referee reports it: read off the deal's summary (the one
    the table writes), so the referee and ``verify`` say the same of it."""
    s = summarize(r)
    out: dict[str, object] = {"dealer": s.dealer, "void": s.void}
    played = s.played
    if played is None:
        return out
    out.update(
        declarer=played.declarer,
        trump=played.trump.letter,
        tricks=[
            {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}
            for t in played.tricks
        ],
        card_points=list(played.card_points),
        last_trick=played.last_trick,
        combinations=list(played.combinations),
        totals=list(played.totals),
        result=played.result,
        written=list(played.written),
        hanging=s.hanging,
        score=list(s.score),
    )
    return out


def _open_deal_report(deal: DealState) -> dict[str, object]:
    out: dict[str, object] = {"dealer": deal.dealer, "void": False, "finished": False}
    if deal.declarer is not None and deal.trump is not None:
        out.update(
            declarer=deal.declarer,
            trump=deal.trump.letter,
            tricks=_tricks(deal),
            card_points=list(deal.card_points),
        )
    return out


def report(game: BelotGame) -> dict[str, object]:
    """What the referee prints (docs/records.md): every deal, then the score and the winner."""
    deals = [_deal_report(r) for r in game.history]
    if game.deal is not None:
        deals.append(_open_deal_report(game.deal))
    return {"deals": deals, "score": list(game.score), "winner": game.winner}
