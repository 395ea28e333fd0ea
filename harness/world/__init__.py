"""The world: the codecs utf8cert ships adapters for, apart from the machinery that runs any codec.

Owns the catalog of shipped adapters, `adapter:NAME` (`catalog`: every entry, and `registry()`),
the Python adapters' code (`adapters`: a codec object per library, their entries' kind in
`adapters.entry`, their version probes in `adapters.probes`), the programs in other languages and
the C libraries' programs (`programs`: sources, runtimes, builds), and how a spec names them
(`spec`: the loader that resolves `adapter:NAME` and hands every other spec to the codec wing's;
`serve`: the child an isolated adapter runs in). README.md says how to add an adapter.

It may import the codec and vectors wings and `utf8cert.reference`; the codec, vectors and check
wings never import it (the command line, the plugin, the fuzzer and reports may).
"""
