"""The terminal screens: the table, and the prompt_toolkit/trio glue.

See docs/architecture-ui.md.
"""
