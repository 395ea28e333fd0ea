"""Codecs under test: what utf8cert can ask of a codec and how it reaches one.

Owns the outcome types and the `Codec` protocol (`interface`), spec parsing (`spec`), the adapter
for Python objects and registry codecs (`python_codec`; what a call did, as an outcome, and the
adapter kit's exceptions in `raised`), the `cmd:` line protocol and its Python
server (`protocol`, `serve`), process isolation (`isolate`: the program's pipes in `channel`,
answers matched to requests in `matching`, the time a request may take in `pace`, children that
cannot outlive utf8cert in `children`), telling the user's Ctrl-C from a codec's
KeyboardInterrupt (`interrupts`), the adapter kit's wrapper formats
(`wrappers`, `unwrap`) and the shipped adapters with their registry (`adapters`). It knows
nothing of vectors or verdicts: it may import only `utf8cert.reference` and the standard
library (an adapter imports its own library when it is made).
"""
