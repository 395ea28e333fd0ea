"""The pytest plugin: the `pytest11` entry point (`pytest_plugin`, which imports only pytest until
it is asked for the suite), the conformance suite loaded for a codec (`suite`) and its cases as
pytest items (`items`).

A top wing: it may import every wing but the command line.
"""
