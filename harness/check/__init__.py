"""The check engine: what the reference expects of one input (`expected`, carrying the
reference's one reading of it, `reading`, walked once and handed to every judge, with when each
character is decided, `decided`), the variants a vector is run in,
the comparison that defines a difference (one definition, shared by check, plugin and fuzzer;
the `Difference` type itself, which reports and fuzzer read, in `difference`),
its judgement, diagnosis and description (`describe`), the behaviour a difference shows (one
key a bug, shared by reports and fuzzer), dialect profiles that transform the expectation,
fingerprints, a whole run as a `Report` with the coverage of its questions (by layout too:
`layouts`), a vector's questions asked of a program at once (`prefetch`), the circuit breaker
that stops asking a codec what it crashed or hung on (`breaker`), stopping a run cleanly on a
signal or deadline (`interrupt`) with a note for a codec that kills the interpreter (`fatal`),
and baselines of known differences.

It may import the codec and vectors wings and `utf8cert.reference`, never the world (which
codecs utf8cert ships), reports, fuzzing, the plugin or the command line.
"""
