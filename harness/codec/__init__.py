"""Codecs under test: what utf8cert can ask of a codec and how it reaches one.

Owns the outcome types and the `Codec` protocol (`interface`), spec parsing (`spec`: every kind
but `adapter:NAME`, which the world wing resolves), the adapter for Python objects and registry
codecs (`python_codec`; what a call did, as an outcome, and the adapter kit's exceptions in
`raised`), the `cmd:` line protocol and its Python server (`protocol`, its first line in
`handshake`, `serve`), process isolation (`isolate`: the program's pipes in `channel`, answers
matched to requests in `matching`, the time a request may take in `pace`, children that cannot
outlive utf8cert in `children`, what they get of the environment in `child_environment`, a
program that fails to start in `start_error`), telling the user's Ctrl-C from a codec's
KeyboardInterrupt (`interrupts`), the adapter kit's wrapper formats (`wrappers`, `unwrap`),
native libraries (`native`, `native_runtime`) and the directory builds are kept in (`cache`).
The shipped adapters and programs are not its own: they are the world wing's, which imports this
one. It knows nothing of vectors, verdicts or the world: it may import only `utf8cert.reference`
and the standard library.
"""
