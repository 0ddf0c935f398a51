"""Persistent identity: created once with private modes, then loaded unchanged."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from p2pbelka.net.identity import (
    KEY_FILE,
    PROFILE_FILE,
    Identity,
    IdentityError,
    config_dir,
    fingerprint,
    verify_signature,
)


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_created_on_first_use_then_loaded(tmp_path: Path) -> None:
    home = tmp_path / "cfg" / "p2pbelka"
    first = Identity.load_or_create(home, name="Ana")
    assert _mode(home) == 0o700
    assert _mode(home / KEY_FILE) == 0o600
    assert _mode(home / PROFILE_FILE) == 0o600
    second = Identity.load_or_create(home, name="ignored on reload")
    assert second.public_key == first.public_key
    assert second.name == "Ana"
    sig = second.sign(b"msg")
    assert verify_signature(first.public_key, sig, b"msg")


def test_env_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("P2PBELKA_HOME", str(tmp_path / "envhome"))
    assert config_dir() == tmp_path / "envhome"
    ident = Identity.load_or_create()
    assert (tmp_path / "envhome" / KEY_FILE).exists()
    assert Identity.load_or_create().public_key == ident.public_key
    monkeypatch.delenv("P2PBELKA_HOME")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config_dir() == tmp_path / "xdg" / "p2pbelka"
    assert config_dir(tmp_path / "explicit") == tmp_path / "explicit"


def test_rename_keeps_key(tmp_path: Path) -> None:
    a = Identity.load_or_create(tmp_path, name="old")
    Identity.rename("new\nname", tmp_path)
    b = Identity.load_or_create(tmp_path)
    assert b.public_key == a.public_key
    assert b.name == "newname"


def test_corrupt_key_is_an_error_not_overwritten(tmp_path: Path) -> None:
    Identity.load_or_create(tmp_path)
    (tmp_path / KEY_FILE).write_bytes(b"not a key")
    with pytest.raises(IdentityError):
        Identity.load_or_create(tmp_path)
    assert (tmp_path / KEY_FILE).read_bytes() == b"not a key"


def test_loose_modes_are_tightened(tmp_path: Path) -> None:
    Identity.load_or_create(tmp_path)
    os.chmod(tmp_path / KEY_FILE, 0o644)
    os.chmod(tmp_path, 0o755)
    Identity.load_or_create(tmp_path)
    assert _mode(tmp_path / KEY_FILE) == 0o600
    assert _mode(tmp_path) == 0o700


def test_fingerprint_format_and_generate() -> None:
    ident = Identity.generate("bot 1")
    fp = ident.fingerprint
    groups = fp.split(" ")
    assert len(groups) == 4 and all(len(g) == 4 for g in groups)
    assert fp == fingerprint(ident.public_key)
    assert "private" not in repr(ident).lower()
    assert Identity.from_seed(bytes(32)).public_key == Identity.from_seed(bytes(32)).public_key


def test_verify_never_raises_on_junk() -> None:
    assert not verify_signature(b"short", b"x" * 64, b"m")
    assert not verify_signature(b"\xff" * 32, b"x" * 64, b"m")
    assert not verify_signature(Identity.generate().public_key, b"x" * 10, b"m")
