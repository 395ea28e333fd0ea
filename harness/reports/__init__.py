"""Reports: a `Report` of the check engine explained in words and written as text, JSON and a
Markdown certificate; many reports side by side as the conformance matrix (`matrix`).

It may import the check engine and the wings below it, never fuzzing, the plugin or the
command line.
"""
