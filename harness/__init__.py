"""utf8cert.harness: loading vectors and checking codecs against the reference."""
