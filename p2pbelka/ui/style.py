"""Colours of the table screen (16-colour safe: every terminal shows them)."""

from prompt_toolkit.styles import Style

STYLE = Style.from_dict(
    {
        "title": "reverse bold",
        "hints": "bg:ansiblack ansigray",
        "hints.button": "bg:ansiblack ansiwhite underline",
        "card": "bg:ansiwhite ansiblack",
        "card.red": "bg:ansiwhite ansired",
        "suit.red": "ansired",
        "card.legal": "bold",
        "card.dim": "bg:ansigray",
        "card.chosen": "bg:ansiyellow bold",
        "card.won": "bg:ansibrightgreen",
        "card.back": "bg:ansiblue ansiwhite",
        "call": "ansicyan bold",
        "number": "ansigray",
        "number.legal": "ansibrightgreen bold",
        "seat": "",
        "seat.turn": "ansiyellow bold",
        "seat.me": "bold",
        "heading": "bold",
        "hint": "ansigray",
        "status": "bold",
        "button": "reverse",
        "bar": "ansicyan",
        "die": "ansigray",
        "pip": "ansiwhite",
        "pip.open": "ansired bold",
        "verdict.ok": "ansigreen bold",
        "verdict.bad": "ansired bold",
        "dialog": "bg:ansiblue ansiwhite",
        "small": "bold",
        "rule": "ansigray",
    }
)
