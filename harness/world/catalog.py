"""The catalog of shipped adapters, `adapter:NAME`: every entry, in the order the matrix shows them.

    utf8cert adapters                    # the list, with what is missing and why
    utf8cert check adapter:orjson        # one of them
    utf8cert matrix                      # all that are available, side by side

A Python adapter's entry is written here, in PYTHON_ADAPTERS (its code in adapters/, its probe in
adapters/probes.py); a program's is written next to its runtime in programs/ and collected by
programs.PROGRAMS. `registry()` is the one list of both. README.md says how to add one.
"""

from __future__ import annotations

from collections.abc import Mapping

from utf8cert.harness.world.adapters.entry import Entry, PythonAdapter, Unversioned
from utf8cert.harness.world.adapters.probes import (
    glibc,
    jq_version,
    libyaml,
    package,
    python_version,
    pyyaml,
    sqlite,
    stdlib,
)

__all__ = ["PYTHON_ADAPTERS", "registry"]

CPYTHON = "CPython's utf-8 codec"

_ENTRIES = (
    PythonAdapter(
        "cpython-strict", f"{CPYTHON}, errors='strict'", "codec:utf-8", python_version, ""
    ),
    PythonAdapter(
        "cpython-replace",
        f"{CPYTHON}, errors='replace': a replacing decoder (judged as replace)",
        "codec:utf-8:replace",
        python_version,
        "",
    ),
    PythonAdapter(
        "cpython-surrogateescape",
        f"{CPYTHON}, errors='surrogateescape' (PEP 383)",
        "codec:utf-8:surrogateescape",
        python_version,
        "",
    ),
    PythonAdapter(
        "cpython-surrogatepass",
        f"{CPYTHON}, errors='surrogatepass'",
        "codec:utf-8:surrogatepass",
        python_version,
        "",
    ),
    PythonAdapter(
        "cpython-utf-8-sig", "CPython's utf-8-sig codec", "codec:utf-8-sig", python_version, ""
    ),
    PythonAdapter(
        "cpython-incremental",
        f"{CPYTHON}'s incremental decoder alone (codecs.getincrementaldecoder)",
        ".cpython:Incremental",
        python_version,
        "",
    ),
    PythonAdapter(
        "json",
        "json.loads on bytes, a JSON string",
        ".json_text:StdlibJson",
        stdlib("json"),
        "",
    ),
    PythonAdapter(
        "orjson",
        "orjson.loads and dumps, a JSON string",
        ".json_text:Orjson",
        package("orjson", "orjson"),
    ),
    PythonAdapter(
        "ujson", "ujson.loads, a JSON string", ".json_text:Ujson", package("ujson", "ujson")
    ),
    PythonAdapter(
        "simplejson",
        "simplejson.loads on bytes, a JSON string",
        ".json_text:Simplejson",
        package("simplejson", "simplejson"),
    ),
    PythonAdapter(
        "rapidjson",
        "python-rapidjson's loads on bytes, a JSON string",
        ".json_text:Rapidjson",
        package("rapidjson", "python-rapidjson"),
    ),
    PythonAdapter(
        "msgspec-json",
        "msgspec.json.decode and encode, a JSON string",
        ".json_text:MsgspecJson",
        package("msgspec", "msgspec"),
    ),
    PythonAdapter(
        "msgspec-msgpack",
        "msgspec.msgpack.decode and encode, a msgpack str",
        ".binary:MsgspecMsgpack",
        package("msgspec", "msgspec"),
    ),
    PythonAdapter(
        "msgpack",
        "msgpack.unpackb and packb (C extension), a msgpack str",
        ".binary:Msgpack",
        package("msgpack._cmsgpack", "msgpack"),
    ),
    PythonAdapter(
        "msgpack-fallback",
        "msgpack.fallback unpackb and Packer (pure Python), a msgpack str",
        ".binary:MsgpackFallback",
        package("msgpack.fallback", "msgpack"),
    ),
    PythonAdapter(
        "cbor2",
        "cbor2.loads and dumps, a CBOR text string",
        ".binary:Cbor2",
        package("cbor2", "cbor2"),
    ),
    PythonAdapter(
        "lxml",
        "lxml.etree.fromstring (libxml2), the text of an XML element",
        ".markup:Lxml",
        package("lxml.etree", "lxml"),
    ),
    PythonAdapter(
        "lxml-recover",
        "lxml.etree.fromstring with recover=True (libxml2), the text of an XML element",
        ".markup:LxmlRecover",
        package("lxml.etree", "lxml"),
    ),
    PythonAdapter(
        "pyyaml-libyaml",
        "PyYAML's CSafeLoader (libyaml), a double-quoted YAML scalar",
        ".markup:PyyamlLibyaml",
        libyaml,
        "",
    ),
    PythonAdapter(
        "pyyaml-pure",
        "PyYAML's pure-Python SafeLoader, a double-quoted YAML scalar",
        ".markup:PyyamlPure",
        pyyaml,
        "",
    ),
    PythonAdapter(
        "pyicu",
        "ICU's UTF-8 converter through PyICU (UnicodeString(bytes, 'utf-8', strict or replace))",
        ".native:Pyicu",
        package("icu", "PyICU"),
        "",
    ),
    PythonAdapter(
        "glibc-iconv",
        "glibc iconv from UTF-8 to WCHAR_T, through ctypes",
        ".native:GlibcIconv",
        glibc,
        "",
    ),
    PythonAdapter(
        "glibc-mbrtowc",
        "glibc multibyte conversion in C.UTF-8 (mbsnrtowcs, restartable like mbrtowc), via ctypes",
        ".native:GlibcMbrtowc",
        glibc,
        "",
    ),
    PythonAdapter(
        "sqlite",
        "SQLite's UTF-8 to UTF-16 translation (bind_text, column_text16), through ctypes",
        ".native:Sqlite",
        sqlite,
        "",
    ),
    # Each description below ends with the slot it fills and, for a decoder, its mode: `decode`
    # (strict), `replace`, `validate`, `encode`, `incremental`.
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
    PythonAdapter(
        "protobuf",
        "google.protobuf (upb): struct_pb2.Value.FromString, a proto3 string field: decode",
        ".records:Protobuf",
        package("google.protobuf", "protobuf"),
    ),
    PythonAdapter(
        "pydantic-core-json",
        "pydantic_core.from_json on bytes (jiter), a JSON string: decode",
        ".records:PydanticJson",
        package("pydantic_core", "pydantic-core"),
    ),
    PythonAdapter(
        "ormsgpack",
        "ormsgpack.unpackb and packb (Rust), a msgpack str: decode, encode",
        ".records:Ormsgpack",
        package("ormsgpack", "ormsgpack"),
    ),
    PythonAdapter(
        "duckdb-decode",
        "DuckDB's decode(BLOB) to VARCHAR (SELECT decode(?::BLOB), in memory): decode",
        ".records:DuckdbDecode",
        package("duckdb", "duckdb"),
    ),
    PythonAdapter(
        "selectolax-lexbor",
        "selectolax's LexborHTMLParser (lexbor), the text of a paragraph: replace (it never "
        "refuses)",
        ".records:SelectolaxHtml",
        package("selectolax.lexbor", "selectolax"),
    ),
)
PYTHON_ADAPTERS: Mapping[str, PythonAdapter] = {adapter.name: adapter for adapter in _ENTRIES}
"""The Python adapters by name, in the order of the list above (a new one goes at its end)."""


def registry() -> dict[str, Entry]:
    """Return every shipped adapter by name: the Python adapters, then the programs
    (programs.PROGRAMS); a name taken twice keeps its first entry (tests/codec/test_adapters.py
    checks that none is)."""
    from utf8cert.harness.world.programs import PROGRAMS

    entries: dict[str, Entry] = dict(PYTHON_ADAPTERS)
    for name, program in PROGRAMS.items():
        entries.setdefault(name, program if hasattr(program, "version") else Unversioned(program))
    return entries
