"""The vectors: the typed model of a test vector, and reading, building, loading and exporting
the YAML files under `vectors/` (plus the byte samples the fuzzer and strategies draw from).

It may import only `utf8cert.reference`; the codec wing, beside it, is never imported here.
"""
