"""Raises KeyboardInterrupt at import, as if the user had pressed Ctrl-C."""

raise KeyboardInterrupt
