"""Each game's screen, in a package of its own: its view, panels, pages, prompts, keys
and replay, registered in ``ui/registry.py`` as one :class:`~p2pbelka.ui.gameui.GameUI`."""
