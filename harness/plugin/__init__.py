"""The pytest plugin: the `pytest11` entry point (`pytest_plugin`, which imports only pytest until
it is asked for the suite) and the conformance suite as pytest items (`suite`).

A top wing: it may import every wing but the command line.
"""
