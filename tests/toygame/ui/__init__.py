"""Toy on screen: ``screen.UI`` is what the one table screen asks of it."""
