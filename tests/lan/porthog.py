"""Another program on a port, for the resume tests: it listens on ``HOST:PORT`` (taken
even while a killed program's connections linger there) and closes every connection
at once, so whoever dials it hears that at once instead of waiting on a silent socket.

``python -m tests.lan.porthog HOST PORT`` prints ``holding PORT`` once it listens.
"""

from __future__ import annotations

import socket
import sys

import trio


async def main(host: str, port: int) -> None:
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    await sock.bind((host, port))
    sock.listen()
    print(f"holding {port}", flush=True)
    while True:
        conn, _ = await sock.accept()
        conn.close()


if __name__ == "__main__":
    trio.run(main, sys.argv[1], int(sys.argv[2]))
