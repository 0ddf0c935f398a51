"""Hypothesis strategies for every message body, shared by the codec and table fuzz tests."""

from __future__ import annotations

from hypothesis import strategies as st

from p2pbelka.protocol import messages as m

points = st.binary(min_size=32, max_size=32)
openings = st.builds(m.Opening, st.integers(0, 63), points)

BY_TYPE: dict[str, st.SearchStrategy[m.Message]] = {
    "sit": st.builds(m.SitMsg, points),
    "lot_commit": st.builds(m.LotCommitMsg, points),
    "lot_reveal": st.builds(m.LotRevealMsg, points),
    "commit": st.builds(m.CommitMsg, points),
    "shuffle": st.builds(
        m.ShuffleMsg, st.lists(points, min_size=2, max_size=64).map(tuple), points
    ),
    "lock": st.builds(m.LockMsg, st.lists(points, min_size=2, max_size=64).map(tuple), points),
    "shares": st.builds(
        m.SharesMsg, st.lists(openings, max_size=64, unique_by=lambda o: o.pos).map(tuple)
    ),
    "trump": st.builds(m.TrumpMsg, st.none() | openings, st.booleans()),
    "ready": st.just(m.ReadyMsg()),
    "redeal": st.builds(
        m.RedealMsg,
        st.lists(openings, min_size=8, max_size=8, unique_by=lambda o: o.pos).map(tuple),
    ),
    "play": st.builds(m.PlayMsg, st.integers(0, 63), points),
    "reveal": st.builds(m.RevealMsg, points),
    "deal_end": st.builds(m.DealEndMsg, st.none() | st.binary(min_size=32, max_size=32)),
    "evidence": st.builds(
        m.EvidenceMsg, st.binary(min_size=1, max_size=300), st.binary(min_size=1, max_size=300)
    ),
    "dispute": st.builds(
        m.DisputeMsg,
        st.lists(st.integers(0, 3), min_size=1, max_size=4).map(tuple),
        st.text(st.characters(min_codepoint=0xA0, max_codepoint=0x2FF), min_size=1, max_size=50),
    ),
    "choice": st.builds(m.ChoiceMsg, st.sampled_from(["plus4", "title"])),
    "turned": st.builds(m.TurnedMsg, openings, st.booleans()),
    "bid": st.builds(m.BidMsg, st.sampled_from(m.CALLS)),
    "declare": st.builds(
        m.DeclareMsg,
        st.lists(openings, min_size=2, max_size=8, unique_by=lambda o: o.pos).map(tuple),
    ),
    "claim": st.just(m.ClaimMsg()),
    "unopened": st.just(m.UnopenedMsg()),
}
MESSAGES = st.one_of(*BY_TYPE.values())
