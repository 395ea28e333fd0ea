"""The command line: `utf8cert check`, `fuzz`, `corpus`, `vectors`, `adapters` and `matrix`
(the console script is `main.main`).

A top wing: it may import every wing but the plugin.
"""
