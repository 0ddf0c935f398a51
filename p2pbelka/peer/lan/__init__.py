"""A game on the LAN: host a table, find and join one, play it over the mesh, resume it.

The host opens a *lobby* listener (announced by multicast beacons) where
joiners see the game and its rules and take seats; when every seat the game's
table has is taken and ready it signs the ``table`` envelope and sends it with
every seat's mesh address.  From then on every peer, the host included, is an
ordinary member of the mesh (``mesh.py``) and a ``PeerDriver`` plays its seat.
Each peer keeps its game in the config directory (``store.py``), so
``resume_game`` can rebuild it after a crash.

The API is for front ends, and is what this package exports: lobby progress
arrives as ``LobbyEvent``s through ``on_lobby``; play arrives through the
``FrontEnd`` given to the driver.  One module per job:

- ``events.py``: the lobby events, and the controls some of them carry;
- ``finding.py``: ``discover_tables``, from beacons and DNS-SD hints;
- ``host.py``: ``host_game``, the lobby listener and its beacons;
- ``hostlobby.py``: the host's side of each joiner's lobby channel;
- ``join.py``: ``join_game``, reaching the lobby, sitting, checking the table;
- ``watchers.py``: the host's watchers and the feed each one gets;
- ``lobbykeep.py``, ``rehost.py``: ``resume_game``, a host's lobby kept with its
  game and reopened to watchers when it resumes;
- ``addresses.py``: this machine's LAN addresses and the others' as we dial them.

The start of a game, once seated, is ``peer/newgame.py``'s, shared by host and join.
"""

from typing import TYPE_CHECKING

from p2pbelka import lazy_names

if TYPE_CHECKING:
    from p2pbelka.peer.lan.addresses import lan_addresses
    from p2pbelka.peer.lan.events import (
        Approve,
        AwaitingApproval,
        CodeRefused,
        GameStarting,
        HostControl,
        HostReached,
        HostUnreachable,
        InviteChanged,
        JoinersAsking,
        JoinRequest,
        LobbyClosed,
        LobbyControl,
        LobbyEvent,
        LobbyRefused,
        LobbyReopened,
        OnLobby,
        ResultsShared,
        SeatsChanged,
        StillTrying,
        TableOpen,
        TableRules,
        TablesHeard,
        WatchersCatchingUp,
        WatchersChanged,
        WatcherView,
        WrongCodeTried,
    )
    from p2pbelka.peer.lan.finding import NoMulticastRoute, discover_tables
    from p2pbelka.peer.lan.host import host_game
    from p2pbelka.peer.lan.join import join_game
    from p2pbelka.peer.lan.rehost import resume_game
    from p2pbelka.peer.seat import GameResult, NetOptions, signer_of

# each name loads its module when first asked for (PEP 562): see ``lazy_names``
__getattr__ = lazy_names(
    __name__,
    {
        "lan_addresses": ".addresses",
        "Approve": ".events",
        "AwaitingApproval": ".events",
        "CodeRefused": ".events",
        "GameStarting": ".events",
        "HostControl": ".events",
        "HostReached": ".events",
        "HostUnreachable": ".events",
        "InviteChanged": ".events",
        "JoinersAsking": ".events",
        "JoinRequest": ".events",
        "LobbyClosed": ".events",
        "LobbyControl": ".events",
        "LobbyEvent": ".events",
        "LobbyRefused": ".events",
        "LobbyReopened": ".events",
        "OnLobby": ".events",
        "ResultsShared": ".events",
        "SeatsChanged": ".events",
        "StillTrying": ".events",
        "TableOpen": ".events",
        "TableRules": ".events",
        "TablesHeard": ".events",
        "WatchersCatchingUp": ".events",
        "WatchersChanged": ".events",
        "WatcherView": ".events",
        "WrongCodeTried": ".events",
        "NoMulticastRoute": ".finding",
        "discover_tables": ".finding",
        "host_game": ".host",
        "join_game": ".join",
        "resume_game": ".rehost",
        "GameResult": "..seat",
        "NetOptions": "..seat",
        "signer_of": "..seat",
    },
)

__all__ = [
    "Approve",
    "AwaitingApproval",
    "CodeRefused",
    "GameResult",
    "GameStarting",
    "HostControl",
    "HostReached",
    "HostUnreachable",
    "InviteChanged",
    "JoinRequest",
    "JoinersAsking",
    "LobbyClosed",
    "LobbyControl",
    "LobbyEvent",
    "LobbyRefused",
    "LobbyReopened",
    "NetOptions",
    "NoMulticastRoute",
    "OnLobby",
    "ResultsShared",
    "SeatsChanged",
    "StillTrying",
    "TableOpen",
    "TableRules",
    "TablesHeard",
    "WatcherView",
    "WatchersCatchingUp",
    "WatchersChanged",
    "WrongCodeTried",
    "discover_tables",
    "host_game",
    "join_game",
    "lan_addresses",
    "resume_game",
    "signer_of",
]
