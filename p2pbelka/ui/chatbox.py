"""The table's chat on screen, any game's: the box one writes in, the lines shown under
the seats, and the note saying why a line was not sent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.widgets import TextArea

from p2pbelka.peer.chat import SLOW_DOWN, TOO_LONG, ChatDropped, ChatLine, watchers_named
from p2pbelka.protocol.chat import MAX_CHAT_TEXT, clean_chat
from p2pbelka.ui.linewrap import wrap
from p2pbelka.ui.view import TableView
from p2pbelka.ui.words.i18n import _

CHAT_ROWS = 4  # the chat panel's lines, under a rule, once there is chat
KEPT = 50  # lines kept for the panel


class ChatBox:
    """The chat box and the lines it shows.  ``send`` is set once the table has chat
    (the front end's); until then a line is ours alone.  ``done`` runs after a line is
    taken from the box (the screen gives the keys back to the table); ``redraw`` after
    any change."""

    def __init__(
        self, view: Callable[[], TableView], done: Callable[[], None], redraw: Callable[[], None]
    ) -> None:
        self._view, self._done, self._redraw = view, done, redraw
        self.send: Callable[[str], None] | None = None
        self.lines: list[ChatLine] = []
        self.note = ""  # why the last line was not sent
        self.chatted = False
        self.box = TextArea(
            height=1, multiline=False, prompt=_("chat> "), accept_handler=self._entered
        )

    def _entered(self, buffer: Any) -> bool:
        text = clean_chat(self.box.text)
        view = self._view()
        self.note = ""
        if len(text) > MAX_CHAT_TEXT:
            # kept in the box to be shortened
            self.note = _too_long(text)
            self._redraw()
            return True
        if text and view.finished:
            self.note = _("The game is over: its chat is closed.")
        elif text and self.send is not None:
            self.send(text)  # the line comes back through show once sent
        elif text:
            if not self.chatted:
                self.chatted = True
                self.note = _("Nobody else reads this chat: the other seats are bots.")
            me = view.me if view.me is not None else 0
            self.lines.append(ChatLine(me, view.name(me), text, mine=True))
        self.box.text = ""
        self._done()
        self._redraw()
        return True

    def show(self, line: ChatLine) -> None:
        """A line of the table's chat (ours included), from the front end; the host's
        line naming who watches is shown beside the seats, not in the chat."""
        named = watchers_named(line.seat, line.text)
        if named is not None:
            if not line.earlier:  # a resumed game's saved one is out of date
                self._view().watchers = named
            self._redraw()
            return
        self.lines.append(line)
        del self.lines[:-KEPT]
        # The note stays: sending cleared it, so it is about a later line (one refused
        # while this one was on its way back), which this line must not hide.
        self._redraw()

    def refused(self, refused: ChatDropped, text: str) -> None:
        """The chat did not send ``text``: say why, and give it back to edit or resend."""
        if refused.reason == SLOW_DOWN:
            self.note = _("Slow down: wait {s} s before the next message.").format(
                s=max(1, round(refused.wait))
            )
        elif refused.reason == TOO_LONG:
            self.note = _too_long(text)
        else:
            return
        if not self.box.text:
            # the cursor after the text given back: what is typed next goes on its end
            self.box.buffer.set_document(Document(text, len(text)), bypass_readonly=True)
        self._redraw()

    def has_lines(self) -> bool:
        return bool(self.lines or self.note)

    def panel(self, width: int) -> StyleAndTextTuples:
        """The last lines, each name in bold, and the note under them."""
        rows: list[tuple[str, str, int]] = []  # style, text, length of a bold name in front
        for line in self.lines[-CHAT_ROWS:]:
            style = "class:hint" if line.earlier else ""
            head = f"{line.name}:"
            wrapped = wrap(f"{head} {line.text}", width - 1, indent="  ")
            rows += [(style, row, len(head) if i == 0 else 0) for i, row in enumerate(wrapped)]
        if self.note:
            rows += [("class:hint", row, 0) for row in wrap(self.note, width - 1)]
        out: StyleAndTextTuples = []
        for style, row, bold in rows[-CHAT_ROWS:]:
            if bold and not style:
                out.append(("class:heading", row[:bold]))
            out.append((style, (row[bold:] if bold and not style else row) + "\n"))
        return out


def _too_long(text: str) -> str:
    return _("Too long: {n} characters (at most {limit}).").format(n=len(text), limit=MAX_CHAT_TEXT)
