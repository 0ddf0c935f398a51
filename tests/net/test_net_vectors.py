"""The test vectors printed in protocol/transport.md, checked against the code.

If one of these changes, the wire format changed: bump the protocol version
and update the spec, do not just paste new hex here.
"""

from __future__ import annotations

from p2pbelka.net.discovery import TableAd, decode_beacon, encode_beacon
from p2pbelka.net.handshake import Handshake, Role
from p2pbelka.net.identity import Identity

INITIATOR = Identity.from_seed(bytes([0x01]) * 32)
RESPONDER = Identity.from_seed(bytes([0x02]) * 32)
BEACON_HOST = Identity.from_seed(bytes([0x03]) * 32)

ID_I = "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c"
ID_R = "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394"
M1 = (
    "01017b4e909bbe7ffe44c465a220037d608ee35897d31ef972f07f74892cb0f73f13"
    "52624f43fc7809037b59f04462bc89f830f8d191f21140bb8eb36e3526671cc7"
)
M2 = (
    "020faa684ed28867b97f4a6a2dee5df8ce974e76b7018e3f22a1c4cf2678570f20"
    "8d4fd9bee1666702cca1109ce2559ab42f6b47744ba7581b99624e1d6351d414"
    "27a2400deb04da56fe698b22e50f4237"
)
M3 = (
    "03d1e8435042e8ba47b36d55341f326b56be2e4b71a4d811d876aceddb3308c1db"
    "af2dcfa12388e58e7d8b46cdc88b93e0aff47c6202e54e63669ab5f132efa09ea3"
    "ad163552bac541025d47a06e5d5574b10239801876b7f241a7d6943ddce18608c0"
    "ac172eb4771fcc7af1598adfd3e2"
)
M4 = (
    "04845343595d7a642e57ac9e74571ccebd17b542b81883318525987b0deb292aed"
    "13eb5fb857f93ab02598420833d7178fb235caa4751b07548ec32ccb1b03dec899"
    "b7f31edf022498eff7944208de68e4"
)
TRANSCRIPT = "395929696bd4cf3e5f770bce64b3bed973e4733f5555e89ced40a8964ecb789d"
HELLO_I2R = "c168d068c0bad04e3ff3cbec792f6e8fcea7533caf"
HELLO_R2I = "812ef2974c28005de4dab609fdd23f4846d7591597"
BEACON = (
    "50424b420181c50dc322bfc1cb0e0ed2ca5e26e969bfb574e3cfe0a05dca2d68cc8c3a35"
    "05f0b38179d29176b376b3c8e1cec6a1b495fc3ac87f22f4b14018eccd15ffe60e8aa269"
    "64c410000102030405060708090a0b0c0d0e0fa46e616d65ad4b69746368656e207461626c"
    "65a776617269616e74a562656c6b61a5736561747304a46672656503a461646472a93130"
    "2e37372e302e31a4706f7274cd1388a36b6579c420ed4928c628d1c2c6eae90338905995"
    "612959273a5c63f93636c14614ac8737d1a3736571cd03e8a27473cf0000018bcfe56800"
)


def test_handshake_vector() -> None:
    assert INITIATOR.public_key.hex() == ID_I
    assert RESPONDER.public_key.hex() == ID_R
    i = Handshake(
        INITIATOR, Role.INITIATOR, context=b"table-vector", ephemeral_seed=bytes([0x11]) * 32
    )
    r = Handshake(
        RESPONDER, Role.RESPONDER, context=b"table-vector", ephemeral_seed=bytes([0x22]) * 32
    )
    m1 = i.start()
    assert m1.hex() == M1
    m2 = r.receive(m1)
    assert m2 is not None and m2.hex() == M2
    m3 = i.receive(m2)
    assert m3 is not None and m3.hex() == M3
    m4 = r.receive(m3)
    assert m4 is not None and m4.hex() == M4
    assert i.receive(m4) is None
    assert i.result().transcript_hash.hex() == TRANSCRIPT
    assert i.result().session.seal(b"hello").hex() == HELLO_I2R
    assert r.result().session.seal(b"hello").hex() == HELLO_R2I


def test_beacon_vector() -> None:
    ad = TableAd(bytes(range(16)), "Kitchen table", "belka", 4, 3, 5000, "10.77.0.1")
    datagram = encode_beacon(BEACON_HOST, ad, seq=1000, timestamp_ms=1_700_000_000_000)
    assert datagram.hex() == BEACON
    assert decode_beacon(bytes.fromhex(BEACON)).ad == ad
