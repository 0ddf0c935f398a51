"""Mental-poker deck with no trusted dealer, game-agnostic (protocol/fairdeal.md).

Typical use by one seat of a session::

    ctx = DealContext(game_id, deal_id, n_seats=4, n_positions=32, version=FAIRDEAL_VERSION)
    me = LocalSeat(ctx, seat)                  # broadcast me.commitment
    deck = me.shuffle(previous_deck)           # or me.initial_deck() if first
    deck = me.lock(previous_deck)
    me.share(j)                                # for positions dealt to others
    card = me.open(j, final_deck[j], {seat: share, ...})
    # end of deal: broadcast me.seed; every seat runs audit(...)
"""

from .audit import AuditReport, Fault, Step, audit
from .deck import (
    CardTable,
    LocalSeat,
    card_point,
    card_table,
    check_deck_points,
    check_deck_shape,
    combine_shares,
    deal_cards,
    deck_digest,
    initial_deck,
    lock_pass,
    open_position,
    shuffle_pass,
)
from .derive import (
    DealContext,
    SeatSecrets,
    check_commitment,
    commit_seed,
    derive_permutation,
    derive_secrets,
    new_seed,
)
from .errors import BadDeck, BadPoint, BadScalar, BadShare, FairDealError, NotACard
from .group import ED25519, GROUP_ORDER, Ed25519Group, Group, OpCounts
from .lots import LotsOutcome, check_lot, commit_lot, new_lot_value, resolve_lots
from .secp256k1 import SECP256K1, Secp256k1Group
from .versions import (
    FAIRDEAL_VERSION,
    SUPPORTED_VERSIONS,
    UnsupportedVersion,
    check_version,
    group_for,
)

__all__ = [
    "ED25519",
    "FAIRDEAL_VERSION",
    "GROUP_ORDER",
    "SECP256K1",
    "SUPPORTED_VERSIONS",
    "AuditReport",
    "BadDeck",
    "BadPoint",
    "BadScalar",
    "BadShare",
    "CardTable",
    "DealContext",
    "Ed25519Group",
    "FairDealError",
    "Fault",
    "Group",
    "LocalSeat",
    "LotsOutcome",
    "NotACard",
    "OpCounts",
    "SeatSecrets",
    "Secp256k1Group",
    "Step",
    "UnsupportedVersion",
    "audit",
    "card_point",
    "card_table",
    "check_commitment",
    "check_deck_points",
    "check_deck_shape",
    "check_lot",
    "check_version",
    "combine_shares",
    "commit_lot",
    "commit_seed",
    "deal_cards",
    "deck_digest",
    "derive_permutation",
    "derive_secrets",
    "group_for",
    "initial_deck",
    "lock_pass",
    "new_lot_value",
    "new_seed",
    "open_position",
    "resolve_lots",
    "shuffle_pass",
]
