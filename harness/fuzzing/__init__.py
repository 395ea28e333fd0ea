"""Fuzzing: the atheris target and campaign, the structure-aware mutator, the screen that compares
raw answers with the reference's, findings and their triage into vectors, the seed corpus, and
the Hypothesis strategies (`assert_conforms`).

It may import the check engine and the wings below it, never reports, the plugin or the
command line.
"""
