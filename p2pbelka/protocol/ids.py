"""Game and segment ids, derived so that no seat chooses them.  Sans-IO.

A place in a seat's chain is (segment id, sender, seq) (protocol/SPEC.md section
2.2).  If a host could choose the id, it could reuse one an honest seat signed
under before and make that seat's old envelopes count again (its old ``sit``
at seq 0, against its new one: "proof" of an equivocation it never made).  So
from flow 3 on, the ids are derived:

- the **game id** (the first segment's id) from every seat's fresh nonce for this
  table, ``nonces`` in seat order::

      game_id = SHA-256(msgpack ["p2pbelka/game-id/v1", [nonce_0, ..., nonce_{n-1}]])[:16]

  A seat that sits down only at a table carrying its own fresh nonce at its seat
  sits down only under an id nobody could have used before (its nonce is new);

- a **continuation's id** from its ``table`` body without the agreements::

      segment_id = SHA-256(msgpack ["p2pbelka/segment-id/v1", body without after.agreed])[:16]

  The body names the previous segment's id and the head of every seat's chain at
  the cut (so it is unique to that cut of that game), the new holder's key and its
  fresh nonce.

Both encodings are canonical msgpack (section 1).  A table before flow 3 names an
id its host chose: ``derived_id`` is None for it (``verify`` still reads it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import encode

GAME_ID_LABEL = "p2pbelka/game-id/v1"
SEGMENT_ID_LABEL = "p2pbelka/segment-id/v1"
ID_SIZE = 16
DERIVED_FLOW = m.NONCES_FLOW
"""The first flow whose tables derive their ids (``TableMsg.nonces``)."""


def game_id_of(nonces: Sequence[bytes]) -> bytes:
    """The id of a game's first segment: the first 16 bytes of SHA-256 over the label
    and the seats' nonces in seat order, as one canonical msgpack array."""
    return hashlib.sha256(encode([GAME_ID_LABEL, list(nonces)])).digest()[:ID_SIZE]


def segment_id_of(table: m.TableMsg) -> bytes:
    """The id of a continuation segment: the first 16 bytes of SHA-256 over the label
    and the continuation's ``table`` body without ``after.agreed`` (what every agreeing
    seat signs, protocol/seatchange.py), as one canonical msgpack array."""
    return hashlib.sha256(encode([SEGMENT_ID_LABEL, table.to_wire(agreed=False)])).digest()[
        :ID_SIZE
    ]


def derived_id(table: m.TableMsg) -> bytes | None:
    """The id an envelope opening ``table`` must name: its game id (a first segment) or
    its segment id (a continuation); None before flow 3, whose host chose it."""
    if table.flow < DERIVED_FLOW:
        return None
    if table.after is None:
        return game_id_of(table.nonces)
    return segment_id_of(table)
