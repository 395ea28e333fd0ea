"""The JVM libraries Debian ships as jars (no Maven): Jackson's core, jsoup, msgpack-java and
Guava, checked through one program, JvmLibraries.java, compiled with their jars.

    from utf8cert.harness.world.programs import PROGRAMS
    PROGRAMS["jvm-jackson-core"].spec()  # "cmd:java -cp ~/.cache/utf8cert/JvmLibraries-KEY:..."

The program needs every jar to compile, so each library's runtime checks them all; its version
is its own jar's, read from the versioned name Debian links to it (/usr/share/java/
jsoup-1.15.3.jar -> jsoup.jar).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from utf8cert.harness.world.programs.program import Program
from utf8cert.harness.world.programs.runtimes import JAVA, Build, Runtime

SHARE: Final = Path("/usr/share/java")
JARS: Final = {
    "jackson-core.jar": "libjackson2-core-java",
    "jsoup.jar": "libjsoup-java",
    "msgpack-core.jar": "libmsgpack-java",
    "guava.jar": "libguava-java",
}
"""Every jar the program is compiled with, and the Debian package that ships it."""
CLASSPATH: Final = ":".join(str(SHARE / jar) for jar in JARS)


def compile_with_jars(source: Path, into: Path) -> list[str]:
    """Return the javac command that builds `source` into `into` against the jars."""
    return ["javac", "-encoding", "UTF-8", "-cp", CLASSPATH, "-d", str(into), str(source)]


BUILD: Final[Build] = compile_with_jars


@dataclass(frozen=True)
class JarLibrary(Runtime):
    """A JVM library in Debian's /usr/share/java, checked through JvmLibraries.java."""

    jar: str = ""
    """Its own jar, whose version it reports."""

    def unavailable(self) -> str | None:
        """Return None when java, javac and every jar are here, else what is missing and the
        Debian packages to install (one line)."""
        missing = super().unavailable()
        absent = [package for jar, package in JARS.items() if not (SHARE / jar).is_file()]
        if missing is None and not absent:
            return None
        packages = " ".join(["default-jdk-headless"] * (missing is not None) + absent)
        what = missing or f"{', '.join(absent)} not installed"
        return f"{what} (apt-get install {packages})"

    def version(self) -> str:
        """Return the library's name and its jar's version ('jsoup 1.15.3'), or 'unknown'."""
        jar = SHARE / self.jar
        stem = jar.name.removesuffix(".jar")
        for named in sorted(SHARE.glob(f"{stem}-*.jar")):
            found = re.fullmatch(rf"{re.escape(stem)}-(\d[\w.\-]*)\.jar", named.name)
            if found and os.path.realpath(named) == os.path.realpath(jar):
                return f"{self.name} {found.group(1)}"
        return "unknown"


def jar_library(name: str, jar: str) -> JarLibrary:
    """Return the runtime of one library of JvmLibraries.java."""
    return JarLibrary(
        name,
        JAVA.tools,
        JAVA.version_command,
        "JvmLibraries.java",
        build=BUILD,
        run=("java", "-cp", "{dir}:" + CLASSPATH, "JvmLibraries"),
        strings="utf-16",
        jar=jar,
    )


JACKSON: Final = jar_library("Jackson core", "jackson-core.jar")
JSOUP: Final = jar_library("jsoup", "jsoup.jar")
MSGPACK_JAVA: Final = jar_library("msgpack-java", "msgpack-core.jar")
GUAVA: Final = jar_library("Guava", "guava.jar")

JVM_PROGRAMS: Final = (
    Program(
        "jvm-jackson-core",
        "Java, Jackson core: JsonFactory.createParser(byte[]) on a JSON string, getText (decode,"
        " no offset)",
        JACKSON,
        "jackson-core",
    ),
    Program(
        "jvm-jsoup",
        'Java, jsoup: Jsoup.parse(InputStream, "UTF-8", ""), a paragraph\'s wholeText (replace)',
        JSOUP,
        "jsoup",
    ),
    Program(
        "jvm-msgpack-java",
        "Java, msgpack-java: MessageUnpacker.unpackString, default config (replace);"
        " MessagePacker.packString (encode)",
        MSGPACK_JAVA,
        "msgpack-java",
    ),
    Program(
        "jvm-guava-utf8",
        "Java, Guava: com.google.common.base.Utf8.isWellFormed(byte[]) (validate)",
        GUAVA,
        "guava-utf8",
    ),
)
"""The JVM libraries' programs, in the order the matrix shows them."""
