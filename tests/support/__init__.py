"""The tests' shared helpers: codecs and programs under test, readers of the peer
suites, the tier markers, the session's heartbeat. tests/ is on sys.path (pytest's
rootdir conftest), so they are imported as `support.NAME`, and a codec of theirs is
named `support.NAME:ATTR` with tests/ on PYTHONPATH."""
