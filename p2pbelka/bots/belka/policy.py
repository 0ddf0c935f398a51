"""The club player's card choice, on ints: the ``heuristic`` level and the playout policy.

:func:`choose` reads only a :class:`~p2pbelka.bots.belka.knowledge.Seen`, so the same
code plays for the ``heuristic`` bot (from its view) and inside the ``strong``
bot's playouts (from a sampled deal, one seat at a time).

The rules of thumb, in the order a player thinks of them:

- second and later to a trick: when the partner holds the trick safely, give it
  points ("smear"); when an opponent holds it, win with the cheapest card that
  wins and stays winning, else play the cheapest card, never an ace or a ten
  for the opponents if something else will do;
- void in the led suit: trump an opponent's trick that is worth it, else throw
  a small card of a short plain suit, making a void to trump later;
- leading: draw the opponents' trumps with the master trump, cash masters the
  opponents cannot trump, lead where the partner is void (to be trumped) or
  strong (a suit the partner led), and otherwise lead small from a long suit.
"""

from __future__ import annotations

from typing import Final

from p2pbelka.bots.belka.knowledge import ORDER, Seen, low_card, top_card
from p2pbelka.cards import iter_bits
from p2pbelka.rules.belka import core

POINTS: Final = core.POINTS
EFF: Final = core.EFFECTIVE_SUIT_MASKS
ESUIT: Final = core.EFFECTIVE_SUIT
POWER: Final = core.POWER
TRUMPS: Final = core.TRUMP_MASKS


def legal(s: Seen) -> int:
    led = ESUIT[s.trump][s.trick[0]] if s.trick else -1
    banned = core.unled_aces(s.trump, s.led_suits) if s.ace_rule and s.trick else 0
    return core.legal_mask(s.hand, led, s.trump, banned)


def choose(s: Seen) -> int:
    """The card (index) a sound player would play now."""
    if not s.trick:
        options = s.hand  # anything may be led
        if options & (options - 1) == 0:
            return options.bit_length() - 1
        return _lead(s, options)
    options = legal(s)
    if options & (options - 1) == 0:
        return options.bit_length() - 1
    return _follow(s, options)


def _cheapest(options: int, trump: int, led: int) -> int:
    """The card that gives away least: fewest points, then weakest; trumps kept if possible."""
    pw = POWER[trump][led]
    plain = options & ~TRUMPS[trump]
    pool = plain or options
    return min(iter_bits(pool), key=lambda c: (POINTS[c], pw[c]))


def _discard(s: Seen, options: int) -> int:
    """Void in the led suit and not winning: a small card from a short plain suit."""
    t = s.trump
    plain = options & ~TRUMPS[t]
    if not plain:
        return low_card(options, t, t)
    best = -1
    best_key = (99, 99, 99)
    for c in iter_bits(plain):
        suit = c >> 3
        # A lone ten or king under an outstanding ace is lost anyway: an ok discard.
        length = (s.hand & EFF[t][suit]).bit_count()
        key = (POINTS[c] if POINTS[c] < 10 else 20 + POINTS[c], length, POWER[t][suit][c])
        if key < best_key:
            best, best_key = c, key
    return best


def _opp_can_beat(s: Seen, opp: int, led: int, best_pw: int, others: int) -> bool:
    """Could ``opp`` (yet to play) take a trick whose best card has power ``best_pw``?

    ``others``: ``s.others``, worked out once by the caller."""
    t = s.trump
    pw = POWER[t][led]
    in_suit = others & EFF[t][led]
    trumps = others & TRUMPS[t]
    void = s.voids[opp]
    if not void >> led & 1:
        top = top_card(in_suit, t, led)
        if top >= 0 and pw[top] > best_pw:
            return True
        # Few of the suit left out: the opponent may well be void and trump.
        maybe_void = in_suit.bit_count() <= 1
    else:
        maybe_void = True
    if led == t or not maybe_void or void >> t & 1:
        return False
    top = top_card(trumps, t, t)
    return top >= 0 and pw[top] > best_pw


def _follow(s: Seen, options: int) -> int:
    t = s.trump
    trick = s.trick
    led = ESUIT[t][trick[0]]
    pw = POWER[t][led]
    best_off = core.trick_winner(trick, t)
    best_pw = pw[trick[best_off]]
    winner = (s.leader + best_off) & 3
    pts = 0
    for c in trick:
        pts += POINTS[c]
    # The only opponent still to play, if any: the next seat (the one after it is the
    # partner, and the one after that has led).
    opp = (s.seat + 1) & 3 if len(trick) < 3 else -1
    others = s.others
    following = bool(options & EFF[t][led])

    if winner == s.seat ^ 2:
        if opp < 0 or not _opp_can_beat(s, opp, led, best_pw, others):
            return _smear(s, options, led)
        beaters = [c for c in iter_bits(options) if pw[c] > best_pw]
        safe = [c for c in beaters if not _opp_can_beat(s, opp, led, pw[c], others)]
        if safe and (following or pts >= 10):
            return min(safe, key=lambda c: pw[c])
        return _cheapest(options, t, led) if following else _discard(s, options)

    beaters = [c for c in iter_bits(options) if pw[c] > best_pw]
    if beaters:
        if opp < 0:
            safe = beaters
        else:
            safe = [c for c in beaters if not _opp_can_beat(s, opp, led, pw[c], others)]
        if safe:
            c = min(safe, key=lambda c: (pw[c], -POINTS[c]))
            # Not a high trump (ten and up) for a cheap trick: it is worth more later.
            if following or pts + POINTS[c] >= 10 or pw[c] < 105:
                return c
        elif pts >= 10 and not following:
            # A ruff that may be overruffed, for a trick worth it.
            return min(beaters, key=lambda c: pw[c])
    # No sure winner: play low and leave the trick to the partner, who plays later.
    if following:
        return _cheapest(options, t, led)
    return _discard(s, options)


def _smear(s: Seen, options: int, led: int) -> int:
    """The partner's trick is safe: add the most points, keeping trumps when we can."""
    t = s.trump
    plain = options & ~TRUMPS[t]
    pool = plain or options
    discarding = not options & EFF[t][led]

    def value(c: int) -> tuple[int, int]:
        p = POINTS[c]
        # A plain ace wins a trick of its own later; a ten may not: smear the ten first.
        if discarding and c & 7 == core.ACE:
            p -= 2
        if c & 7 == core.JACK:
            p -= 3
        return (p, -POWER[t][ESUIT[t][c]][c])

    return max(iter_bits(pool), key=value)


def _plain_suits(s: Seen) -> list[tuple[int, int]]:
    """(suit, the hand's cards of it) for each plain suit the hand holds."""
    t = s.trump
    return [(u, s.hand & EFF[t][u]) for u in range(4) if u != t and s.hand & EFF[t][u]]


def _lead(s: Seen, options: int) -> int:
    t = s.trump
    others = s.others
    partner = s.seat ^ 2
    opps = (s.seat ^ 1, s.seat ^ 3)
    trumps = s.hand & TRUMPS[t]
    out_trumps = others & TRUMPS[t]
    voids = s.voids
    opp_trumps = out_trumps and not (voids[opps[0]] >> t & 1 and voids[opps[1]] >> t & 1)
    tp = POWER[t][t]

    if trumps and opp_trumps:
        top = top_card(trumps, t, t)
        top_out = top_card(out_trumps, t, t)
        ours = s.trump_team == s.seat & 1
        if tp[top] > tp[top_out] and (ours or trumps.bit_count() >= 3):
            return top

    cash = -1
    cash_pts = -1
    plain_suits = _plain_suits(s)
    for suit, mine in plain_suits:
        top = top_card(mine, t, suit)
        top_out = top_card(others & EFF[t][suit], t, suit)
        if top_out >= 0 and POWER[t][suit][top_out] > POWER[t][suit][top]:
            continue
        if any(s.voids[o] >> suit & 1 and not s.voids[o] >> t & 1 for o in opps) and out_trumps:
            continue
        if POINTS[top] > cash_pts:
            cash, cash_pts = top, POINTS[top]
    if cash >= 0 and (cash_pts > 0 or not trumps):
        return cash

    # The partner ruffs, or holds the suit's top: lead small into it.
    for suit, mine in plain_suits:
        partner_ruffs = (
            s.voids[partner] >> suit & 1
            and not s.voids[partner] >> t & 1
            and out_trumps
            and not any(s.voids[o] >> suit & 1 for o in opps)
        )
        if partner_ruffs or s.led_by[partner] >> suit & 1:
            c = low_card(mine, t, suit)
            if POINTS[c] < 10:
                return c

    best = -1
    best_key = (99, 99, 99)
    tops_out = [-2, -2, -2, -2]  # per suit, the others' top card once looked up
    for c in iter_bits(options):
        suit = ESUIT[t][c]
        mine = s.hand & EFF[t][suit]
        ace_out = tops_out[suit]
        if ace_out == -2:
            ace_out = tops_out[suit] = top_card(others & EFF[t][suit], t, suit)
        # Leading away from a guarded ten or king gives the opponents a cheap trick.
        exposed = POINTS[c] >= 3 and ace_out >= 0 and POWER[t][suit][ace_out] > POWER[t][suit][c]
        key = (
            POINTS[c] + (20 if exposed else 0) + (15 if suit == t else 0),
            -mine.bit_count(),
            POWER[t][suit][c],
        )
        if key < best_key:
            best, best_key = c, key
    return best


__all__ = ["ORDER", "choose", "legal"]
