"""Reports: a `Report` of the check engine explained in words and written as text, JSON and a
Markdown certificate.

It may import the check engine and the wings below it, never fuzzing, the plugin or the
command line.
"""
