"""The command line: `utf8cert check`, `fuzz`, `corpus`, `vectors`, `adapters` and `matrix`
(the console script is `main.main`).

Each subcommand is a `*_command` module that registers its parser and runs it; the longer ones
keep their options apart (`check_options`, `fuzz_options`). `check` takes what it is asked to
check from `check_input`, the reproducers of its differences from `check_rerun`, and writes its
report to the terminal and files through `outputs`; `fuzz` shows its progress and findings
through `fuzz_view`.

A top wing: it may import every wing but the plugin.
"""
