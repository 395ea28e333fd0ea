"""Codecs under test: what utf8cert can ask of a codec and how it reaches one.

Owns the outcome types and the `Codec` protocol (`interface`), spec parsing (`spec`), the adapter
for Python objects and registry codecs (`python_codec`), the `cmd:` line protocol and its Python
server (`protocol`, `serve`), and process isolation (`isolate`). It knows nothing of vectors or
verdicts: it may import only `utf8cert.reference` and the standard library.
"""
