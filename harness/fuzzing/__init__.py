"""Fuzzing: the atheris target (`target`, `differential`) and campaign (`campaign`: what it runs
on; `driver`: running it and following its progress), the structure-aware mutator (`mutator`),
the screen that compares raw answers with the reference's (`screen`), findings (`finding`) —
minimized (`minimize`), written as vectors (`finding_vector`), saved (`save`) — and their
triage (`triage`), the seed corpus (`corpus`), and the Hypothesis strategies (`strategies`,
placed across alignments and block boundaries by `placement`) with the conformance property
they feed (`conformance`: `assert_conforms`).

It may import the check engine, the world and the wings below them, never reports, the plugin or the
command line.
"""
