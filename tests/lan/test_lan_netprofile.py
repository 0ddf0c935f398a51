from __future__ import annotations

import cProfile
import hashlib
from pathlib import Path

from p2pbelka.bench.netprofile import breakdown, bucket


def test_functions_land_in_the_buckets_a_reader_looks_for() -> None:
    assert bucket("~", "<built-in method _libsecp256k1.secp256k1_ec_pubkey_tweak_mul>") == (
        "group multiplications"
    )
    assert bucket("~", "<built-in method _sodium.crypto_sign_open>") == "signatures"
    assert bucket("~", "<built-in method posix.fdatasync>") == "disk syncs"
    assert bucket("~", "<method 'poll' of 'select.epoll' objects>") == "idle"
    assert bucket("~", "<built-in method posix.write>") == "sockets"  # SecureChannel.send_now
    assert bucket("/x/site-packages/trio/_core/_run.py", "unrolled_run") == "trio"
    assert bucket("/x/p2pbelka/table/session.py", "receive") == "p2pbelka.table"
    assert bucket("/x/p2pbelka/cli/main.py", "main") == "start-up and imports"
    assert bucket("/usr/lib/python3/json/decoder.py", "decode") == "standard library and other"


def test_breakdown_divides_by_peers_and_deals(tmp_path: Path) -> None:
    paths = []
    for name in ("a", "b"):
        profiler = cProfile.Profile()
        profiler.enable()
        for i in range(2000):
            hashlib.sha256(str(i).encode()).digest()
        profiler.disable()
        path = tmp_path / f"{name}.prof"
        profiler.dump_stats(str(path))
        paths.append(path)
    one_deal = breakdown(paths, 1)
    two_deals = breakdown(paths, 2)
    assert one_deal and set(one_deal) == set(two_deals)
    for label, ms in one_deal.items():
        assert abs(two_deals[label] - ms / 2) <= 0.011
