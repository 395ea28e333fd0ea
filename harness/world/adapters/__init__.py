"""The Python adapters' code: a codec object per library or mode, named by its catalog entry.

An entry (entry.py) is anything with a `name`, a `description`, `version()`, `unavailable()`
(None, or the reason it cannot run here: a package or runtime missing) and `spec()` (the spec it
stands for: a `codec:` spec, a MODULE:CLASS codec object in this package, or a `cmd:` program)
and `strings` (what the codec's strings hold: "utf-16" for JavaScript and Java, whose encoders are
then never asked what no UTF-16 string holds, codec/strings.py; a program must announce the same
in its handshake). The entries themselves are in ../catalog.py; their version probes in probes.py.
"""
