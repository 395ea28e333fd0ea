"""Kills the process that imports it with SIGSEGV."""

import ctypes

ctypes.string_at(0)
