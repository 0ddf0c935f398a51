"""The test vectors printed in protocol/transport.md, checked against the code.

If one of these changes, the wire format changed: bump the protocol version
and update the spec, do not just paste new hex here.
"""

from __future__ import annotations

from p2pbelka.net.beacon import TableAd, decode_beacon, encode_beacon
from p2pbelka.net.handshake import Handshake, Role
from p2pbelka.net.identity import Identity
from p2pbelka.net.pake import InvitePake, normal_code

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


# Version 2, with the invite code "482 913" (transport.md section 8.1): the SPAKE2
# randomness seeded, 64 bytes of 0x33 for the initiator and of 0x44 for the responder.
V2 = {
    "HELLO": "01027b4e909bbe7ffe44c465a220037d608ee35897d31ef972f07f74892cb0f73f13"
    "52624f43fc7809037b59f04462bc89f830f8d191f21140bb8eb36e3526671cc7"
    "e82582644c746c070ef4816e4df359add8f15a6d4eb9d422bb74e3becf1bd186",
    "REPLY": "020faa684ed28867b97f4a6a2dee5df8ce974e76b7018e3f22a1c4cf2678570f20"
    "06bef7e9e44f3c3c4fe468f49a0e7b0473edd73c72c87abc7480b6abce141483"
    "92f50dc4b237496e62f1b60ed8fb3e108329fd768962145553eb6f6103f59518"
    "ac88e741f159b8dd200d4145e1665149",
    "AUTH": "0365fa8b2b620da315efdf17d1b58ecc0a2f6d8afd4b151715e32ba0006fc3725b"
    "c35cc7ec59f7438418c49a2150a366a08b512550492e6ead76cd6ef56b734a1d"
    "56f49402930d51fe5fbd5f294e7ec8d750f9a410c2bd1b2fe130944343d7a8fc"
    "2de294ee5465b886e7aa9dda6d616ca969bd38eaedd53a96fefb65153d398532"
    "60016bc8f8f3faf241b0a9f6561ad661",
    "CONFIRM": "04d2db3837b4f691f01f220640abee4eb2bb4dccee1b118455b3550d43770a21f0"
    "bbc612d45ad63ceeecfef4d80eb12d5b9283a85434f4448277210e3d84c12a42"
    "2c02fa433fa212ed9dd2bf17292088ada0b5c4c2107f87e6fee3cf20bbf37194"
    "11b65e84bcf260bc13055b97e725627f",
    "K_pake": "7c9c1cb9fab8c688734f01bb010df3a3fd0e7181b20a71bcca8f2a2837cd6d6f",
    "TH": "0e08b5b2b431b1902c1677041c155f7eda9da6352905d97ecf3ba87c4f0a1b7d",
    "c_I": "25d1127a25be7b504450ae43643dbb895427237aa0b94babd6385506a02a152b",
    "c_R": "e9756e15d78444c9f350d9f362056456e426f0ac7d35ea9fc65f1ef306f65089",
    "I2R": "ce3e003e338a30e5f189d7e8521a0ac125bc84ac53",
    "R2I": "5fdf3272af3393ef13b70d5b4546e75b307acf6161",
}


def test_handshake_vector_with_an_invite_code() -> None:
    code = normal_code("482 913")
    assert code == b"482913"
    i = Handshake(
        INITIATOR, Role.INITIATOR, context=b"table-vector", ephemeral_seed=bytes([0x11]) * 32,
        code=code, pake_entropy=lambda n: bytes([0x33]) * n,
    )  # fmt: skip
    r = Handshake(
        RESPONDER, Role.RESPONDER, context=b"table-vector", ephemeral_seed=bytes([0x22]) * 32,
        code=code, pake_entropy=lambda n: bytes([0x44]) * n,
    )  # fmt: skip
    m1 = i.start()
    assert m1.hex() == V2["HELLO"] and m1[:66].hex()[4:] == M1[4:]  # v1's, then X
    m2 = r.receive(m1)
    assert m2 is not None and m2.hex() == V2["REPLY"]
    m3 = i.receive(m2)
    assert m3 is not None and m3.hex() == V2["AUTH"]
    m4 = r.receive(m3)
    assert m4 is not None and m4.hex() == V2["CONFIRM"]
    assert i.receive(m4) is None
    th = i.result().transcript_hash
    assert th.hex() == V2["TH"]
    pake = InvitePake(code, True, b"", lambda n: bytes([0x33]) * n)  # the key, by hand
    pake.key = bytes.fromhex(V2["K_pake"])
    assert pake.confirmation(True, th).hex() == V2["c_I"]
    assert pake.confirmation(False, th).hex() == V2["c_R"]
    assert i.result().session.seal(b"hello").hex() == V2["I2R"]
    assert r.result().session.seal(b"hello").hex() == V2["R2I"]


def test_the_spake2_of_the_spec_text_computed_with_libsodium_gives_the_vector() -> None:
    """transport.md 3.5 alone, through libsodium's edwards25519 rather than the spake2
    package: the same X, Y and K_pake, so the text fixes the exchange."""
    import hashlib
    import struct

    import nacl.bindings as nb
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    order = 2**252 + 27742317777372353535851937790883648493
    code = b"482913"
    stretched = HKDF(algorithm=hashes.SHA256(), length=48, salt=b"", info=b"SPAKE2 pw")
    w = int.from_bytes(stretched.derive(code), "big") % order
    x = int.from_bytes(b"\x33" * 64, "big") % order
    y = int.from_bytes(b"\x44" * 64, "big") % order

    def le(n: int) -> bytes:
        return n.to_bytes(32, "little")

    m = bytes.fromhex("15cfd18e385952982b6a8f8c7854963b58e34388c8e6dae891db756481a02312")
    n = bytes.fromhex("f04f2e7eb734b2a8f8b472eaf9c3c632576ac64aea650b496a8a20ff00e583c3")
    mul, base, add = (
        nb.crypto_scalarmult_ed25519_noclamp,
        nb.crypto_scalarmult_ed25519_base_noclamp,
        nb.crypto_core_ed25519_add,
    )
    big_x, big_y = add(base(le(x)), mul(le(w), m)), add(base(le(y)), mul(le(w), n))
    assert big_x.hex() == V2["HELLO"][-64:]
    assert big_y.hex() == V2["REPLY"][66:130]
    k = mul(le(x), nb.crypto_core_ed25519_sub(big_y, mul(le(w), n)))
    assert k == mul(le(y), nb.crypto_core_ed25519_sub(big_x, mul(le(w), m)))
    prologue = b"p2pbelka/transport/v1" + bytes([2]) + struct.pack(">I", 12) + b"table-vector"

    def h(data: bytes) -> bytes:
        return hashlib.sha256(data).digest()

    ids = h(b"p2pbelka/v2 invite initiator" + prologue) + h(
        b"p2pbelka/v2 invite responder" + prologue
    )
    assert h(h(code) + ids + big_x + big_y + k).hex() == V2["K_pake"]
