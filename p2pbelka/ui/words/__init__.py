"""Every word a player reads, by topic, in the player's language (the catalogues are
``ui/locale``; a game's own words stay in ``ui/games/<game>/``).

- ``i18n``: the language in use and the catalogue lookups (``_``, ``N_``, ``ngettext``);
- ``cardnames``: cards, suits, seats and teams;
- ``seatlog``: a seat's text log and prompts (``host``, ``join``, ``--text``);
- ``loglines``: the lines a seat's and a watcher's text logs share;
- ``moverefusals``: a move the rules refused, by its rule id;
- ``faults``: the table's faults, and the line of a peer cut off;
- ``forms``: the lower layers' English texts matched by form and worded anew;
- ``verdicts``: a verification's verdict and why a file is no transcript;
- ``admission``: why a host refused a joiner or closed its lobby;
- ``setuperrors``: a command's wrong set-up (seats, rules, bot level, no saved game);
- ``oserrors``: operating-system errors;
- ``rulenames``: a game's name and its rules;
- ``watchnotes``: what a watch tells its watcher of itself (lost, trying again, cut off);
- ``lobbylog``: the lobby in text mode, a line for each lobby event, and the invite code;
- ``argparselines``: argparse's own lines (usage, errors, its help headers).

The layers below emit data (events, kinds and fields) or English for developers'
logs; what a person reads is worded here.
"""
