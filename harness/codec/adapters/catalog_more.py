"""More Python adapters: ftfy, expat, lxml's HTML parser, pysimdjson, pyjson5, jq, the stdlib's
sqlite3, and encoders (ujson, glibc, SQLite, ICU) and replacing modes (msgpack, cbor2) of
libraries whose other modes are in catalog.py, which merges these after its own.

Each description ends with the slot it fills and, for a decoder, its mode: `decode` (strict),
`replace`, `validate`, `encode`, `incremental`.
"""

from __future__ import annotations

from collections.abc import Mapping

from utf8cert.harness.codec.adapters.entry import PythonAdapter
from utf8cert.harness.codec.adapters.jq import jq_version
from utf8cert.harness.codec.adapters.probes import glibc, package, sqlite, stdlib


def _adapters(*adapters: PythonAdapter) -> dict[str, PythonAdapter]:
    return {adapter.name: adapter for adapter in adapters}


ADAPTERS: Mapping[str, PythonAdapter] = _adapters(
    PythonAdapter(
        "ftfy-utf8-variants",
        "ftfy's utf-8-variants codec (CESU-8 and Java's C0 80 too): decode, replace, "
        "incremental (strict)",
        ".parsers:FtfyVariants",
        package("ftfy.bad_codecs", "ftfy"),
    ),
    PythonAdapter(
        "pyexpat",
        "xml.parsers.expat (the expat C library), the text of an XML element: decode",
        ".parsers:Expat",
        stdlib("xml.parsers.expat"),
        "",
    ),
    PythonAdapter(
        "lxml-html",
        "lxml's HTML parser (libxml2), the text of a paragraph: replace (it never refuses)",
        ".parsers:LxmlHtml",
        package("lxml.etree", "lxml"),
    ),
    PythonAdapter(
        "pysimdjson",
        "pysimdjson's Parser.parse (simdjson), a JSON string: decode",
        ".parsers:Pysimdjson",
        package("simdjson", "pysimdjson"),
    ),
    PythonAdapter(
        "sqlite3-text",
        "the stdlib's sqlite3, text_factory=str, on a UTF-8 database: decode",
        ".parsers:Sqlite3Text",
        stdlib("sqlite3"),
        "",
    ),
    PythonAdapter(
        "ujson-dumps",
        "ujson.dumps(ensure_ascii=False), the UTF-8 in a JSON string: encode",
        ".parsers:UjsonDumps",
        package("ujson", "ujson"),
    ),
    PythonAdapter(
        "msgpack-replace",
        "msgpack.unpackb (C extension) with unicode_errors='replace', a msgpack str: replace",
        ".parsers:MsgpackReplace",
        package("msgpack._cmsgpack", "msgpack"),
    ),
    PythonAdapter(
        "cbor2-replace",
        "cbor2.loads with str_errors='replace', a CBOR text string: replace",
        ".parsers:Cbor2Replace",
        package("cbor2", "cbor2"),
    ),
    PythonAdapter(
        "glibc-wcrtomb",
        "glibc's wide-character conversion in C.UTF-8 (wcsrtombs, wcrtomb's loop): encode",
        ".encoders:GlibcWcrtomb",
        glibc,
        "",
    ),
    PythonAdapter(
        "sqlite-encode",
        "SQLite's UTF-16 to UTF-8 translation (bind_text16, column_text), via ctypes: encode",
        ".encoders:SqliteEncoder",
        sqlite,
        "",
        strings="utf-16",
    ),
    PythonAdapter(
        "pyicu-encode",
        "ICU's UTF-8 converter through PyICU (UnicodeString(text).encode('utf-8')): encode",
        ".encoders:PyicuEncoder",
        package("icu", "PyICU"),
        "",
        strings="utf-16",
    ),
    PythonAdapter(
        "pyjson5",
        "pyjson5.decode_utf8 (JSON5) on bytes, a JSON string: decode",
        ".json_text:Pyjson5",
        package("pyjson5", "pyjson5"),
        isolated=True,
    ),
    PythonAdapter(
        "jq",
        "jq (the command-line JSON processor), `explode` of a JSON string: replace (it never "
        "refuses)",
        ".jq:Jq",
        jq_version,
        "",
    ),
)
"""The adapters of this module, in the order the matrix shows them."""
