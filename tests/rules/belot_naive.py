"""A second, naive Belot referee written straight from the rules text, on card strings.

It shares no code with the engine (no masks, no tables from the core), so the
tests can compare the two referees' reports field by field on random games.
"""

from __future__ import annotations

from typing import Any

RANKS = "789TJQKA"
PLAIN = "789JQKTA"  # weakest first
TRUMP = "78QKTA9J"
PLAIN_PTS = {"7": 0, "8": 0, "9": 0, "T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
TRUMP_PTS = {**PLAIN_PTS, "9": 14, "J": 20}
FOUR_PTS = {"J": 200, "9": 140, "A": 110, "Q": 100, "K": 50, "T": 50}
FOUR_RANK = "78QKTA9J"


def points(card: str, trump: str) -> int:
    return (TRUMP_PTS if card[1] == trump else PLAIN_PTS)[card[0]]


def strength(card: str, led: str, trump: str) -> int:
    if card[1] == trump:
        return 100 + TRUMP.index(card[0])
    if card[1] == led:
        return PLAIN.index(card[0])
    return -1


def classify(
    cards: list[str], trump: str, options: dict[str, str]
) -> tuple[str, int, tuple[int, ...]]:
    """(kind, value, comparison tuple) of a legal declaration."""
    if sorted(cards) == sorted(["K" + trump, "Q" + trump]):
        return ("belle", 20, ())
    if len(cards) == 4 and len({c[0] for c in cards}) == 1:
        rank = cards[0][0]
        value = FOUR_PTS.get(rank) or int(
            options.get("four_eights" if rank == "8" else "four_sevens", "0")
        )
        return ("four", value, (1, FOUR_RANK.index(rank)))
    ranks = sorted(RANKS.index(c[0]) for c in cards)
    value = {3: 20, 4: 50}.get(len(cards), 100)
    return ("seq", value, (0, len(cards), ranks[-1], int(cards[0][1] == trump)))


def referee(record: dict[str, Any]) -> dict[str, Any]:
    n = record["players"]
    options = record.get("rules", {}).get("options", {})
    together = options.get("hanging_twice", "together") == "together"
    score = [0] * n
    hanging: list[int] = []
    dealer = record["first_dealer"]
    winner = None
    deals = []
    for d in record["deals"]:
        if "extra" not in d:
            deals.append({"dealer": dealer, "void": True})
            dealer = (dealer + 1) % n
            continue
        turned_suit = d["turned"][1]
        last_bid = d["bids"][-1]
        declarer = (dealer + len(d["bids"])) % n
        trump = turned_suit if last_bid == "play" else last_bid
        hands = [set(d["hands"][s]) | set(d["extra"][s]) for s in range(n)]
        card_points = [0] * n
        took = [False] * n
        tricks = []
        leader = (dealer + 1) % n
        plays = list(d["plays"])
        for k in range(len(plays) // n):
            cards = plays[k * n : (k + 1) * n]
            for off, card in enumerate(cards):
                seat = (leader + off) % n
                assert card in hands[seat]
                hands[seat].discard(card)
            led = cards[0][1]
            best = max(range(n), key=lambda o: strength(cards[o], led, trump))
            w = (leader + best) % n
            card_points[w] += sum(points(c, trump) for c in cards)
            took[w] = True
            tricks.append({"leader": leader, "cards": cards, "winner": w})
            leader = w
        claim = d.get("claim")
        last = tricks[-1]["winner"] if len(tricks) == 9 else None
        # Combinations: the best counting one's owner scores all of its own; belle apart.
        best_key: tuple[int, ...] | None = None
        best_owner = None
        decls = [
            (x["seat"], classify(x["cards"], trump, options)) for x in d.get("declarations", [])
        ]
        for seat, (kind, _v, key) in decls:
            if kind != "belle" and took[seat] and (best_key is None or key > best_key):
                best_key, best_owner = key, seat
        combos = [0] * n
        for seat, (kind, value, _k) in decls:
            if (kind == "belle" and took[seat]) or (kind != "belle" and seat == best_owner):
                combos[seat] += value
        totals = [card_points[s] + combos[s] + (10 if s == last else 0) for s in range(n)]
        if claim is not None:
            written = [totals[s] if s == claim["seat"] else 0 for s in range(n)]
            result = "claim"
            winner = claim["seat"]
        else:
            others = max(totals[s] for s in range(n) if s != declarer)
            result = (
                "made" if totals[declarer] > others
                else "bait" if others > totals[declarer] else "hanging"
            )  # fmt: skip
            written = list(totals)
            if result != "made":
                written[declarer] = 0
            if result == "hanging":
                hanging.append(totals[declarer])
            else:
                top = max(totals)
                if totals.count(top) == 1 and hanging:
                    taken = len(hanging) if together else 1
                    written[totals.index(top)] += sum(hanging[:taken])
                    del hanging[:taken]
        score = [score[s] + written[s] for s in range(n)]
        deals.append(
            {
                "dealer": dealer, "void": False, "declarer": declarer, "trump": trump,
                "tricks": tricks, "card_points": card_points, "last_trick": last,
                "combinations": combos, "totals": totals, "result": result,
                "written": written, "hanging": sum(hanging), "score": list(score),
            }
        )  # fmt: skip
        if claim is not None:
            break
        over = [s for s in range(n) if score[s] >= 1001]
        if len(over) == 1:
            winner = over[0]
        elif over:
            if last in over:
                winner = last
            else:
                order = [(dealer + 1 + k) % n for k in range(n)]
                top_score = max(score[s] for s in over)
                winner = next(s for s in order if s in over and score[s] == top_score)
        dealer = declarer if result == "hanging" else (dealer + 1) % n
        if winner is not None:
            break
    return {"deals": deals, "score": score, "winner": winner}
