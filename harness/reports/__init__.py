"""Reports: a `Report` of the check engine, its differences grouped into behaviours (`view`),
explained in words and written as text, JSON (with its schema), a Markdown certificate, JUnit
XML, GitHub annotations and a self-contained HTML page; many reports side by side as the
conformance matrix (`matrix`).

It may import the check engine, the world and the wings below them, never fuzzing, the plugin or the
command line.
"""
