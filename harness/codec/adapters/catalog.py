"""The Python adapters shipped, each with the probe that tells its version or why it is missing."""

from __future__ import annotations

from collections.abc import Mapping

from utf8cert.harness.codec.adapters.catalog_more import ADAPTERS as MORE
from utf8cert.harness.codec.adapters.entry import PythonAdapter
from utf8cert.harness.codec.adapters.probes import (
    glibc,
    libyaml,
    package,
    python_version,
    pyyaml,
    sqlite,
    stdlib,
)


def _adapters(*adapters: PythonAdapter) -> dict[str, PythonAdapter]:
    return {adapter.name: adapter for adapter in adapters}


CPYTHON = "CPython's utf-8 codec"

PYTHON_ADAPTERS: Mapping[str, PythonAdapter] = _adapters(
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
)
"""The Python adapters, in the order the matrix shows them."""

PYTHON_ADAPTERS = {**PYTHON_ADAPTERS, **MORE}
