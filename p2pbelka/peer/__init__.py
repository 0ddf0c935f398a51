"""The trio drivers that connect a table to its transport, its clock and its player."""
