// A template for certifying a Go UTF-8 codec with utf8cert, over utf8cert-protocol 2
// (harness/PROTOCOL.md). Copy it, put your codec in the four functions marked YOUR CODEC, drop
// from `capabilities` what your codec does not do, then:
//
//	go build -o utf8codec examples/go/utf8codec.go
//	utf8cert check cmd:./utf8codec
//
// As shipped it certifies Go's standard library: decode refuses where utf8.DecodeRune returns
// (RuneError, 1), replace is the []rune conversion (one U+FFFD per bad byte, which utf8cert
// reports as a `should` difference), validate is utf8.Valid, encode refuses what
// utf8.ValidRune rejects.
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// capabilities: the requests your codec answers (decode replace validate encode).
const capabilities = "decode replace validate encode"

// refused is a codec's refusal: where (the first offending byte, or code point for encode; -1
// when the codec does not say) and why.
type refused struct {
	offset  int
	message string
}

// decode is strict decoding: the text, or a refusal at the first ill-formed byte. YOUR CODEC.
func decode(data []byte) ([]rune, *refused) {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return nil, &refused{i, "invalid UTF-8"}
		}
		i += size
	}
	return []rune(string(data)), nil
}

// replace decodes with U+FFFD for ill-formed input. YOUR CODEC.
func replace(data []byte) []rune { return []rune(string(data)) }

// validate says whether the bytes are well-formed UTF-8. YOUR CODEC.
func validate(data []byte) bool { return utf8.Valid(data) }

// encode is strict encoding: the bytes, or a refusal at the first value it cannot encode (a
// surrogate, a value above U+10FFFF). YOUR CODEC.
func encode(values []rune) ([]byte, *refused) {
	var out []byte
	for i, value := range values {
		if !utf8.ValidRune(value) {
			return nil, &refused{i, "not a Unicode scalar value"}
		}
		out = utf8.AppendRune(out, value)
	}
	return out, nil
}

// --- the protocol: nothing to change below --------------------------------------------------

const empty = "-" // an empty field

func bytesOf(field string) ([]byte, error) {
	if field == empty {
		return nil, nil
	}
	return hex.DecodeString(field)
}

// Code points travel as eight hex digits each (the hex of UTF-32BE).
func hexOfRunes(values []rune) string {
	var out strings.Builder
	for _, value := range values {
		fmt.Fprintf(&out, "%08x", uint32(value))
	}
	if out.Len() == 0 {
		return empty
	}
	return out.String()
}

func runesOf(data []byte) []rune {
	values := make([]rune, 0, len(data)/4)
	for i := 0; i+4 <= len(data); i += 4 {
		values = append(values, rune(uint32(data[i])<<24|uint32(data[i+1])<<16|uint32(data[i+2])<<8|uint32(data[i+3])))
	}
	return values
}

func refusal(r *refused) string {
	if r.offset < 0 {
		return "refused - " + r.message
	}
	return fmt.Sprintf("refused %d %s", r.offset, r.message)
}

func answer(operation, field string) string {
	data, err := bytesOf(field)
	if err != nil {
		return "crash bad request: " + err.Error()
	}
	switch operation {
	case "decode":
		if text, r := decode(data); r != nil {
			return refusal(r)
		} else {
			return "ok " + hexOfRunes(text)
		}
	case "replace":
		return "ok " + hexOfRunes(replace(data))
	case "validate":
		return fmt.Sprintf("ok %t", validate(data))
	case "encode":
		if out, r := encode(runesOf(data)); r != nil {
			return refusal(r)
		} else if len(out) == 0 {
			return "ok " + empty
		} else {
			return "ok " + hex.EncodeToString(out)
		}
	}
	return "crash unknown request " + operation
}

func main() {
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(out, "utf8cert-protocol 2 %s\n", capabilities)
	out.Flush()
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	for {
		line, err := in.ReadString('\n')
		if line == "" && err != nil {
			return
		}
		// A request is "ID OPERATION FIELD"; its answer starts with the same ID.
		fields := strings.Fields(line)
		if len(fields) < 2 {
			fields = append(fields, "?", "?")
		}
		field := empty
		if len(fields) > 2 {
			field = fields[2]
		}
		fmt.Fprintf(out, "%s %s\n", fields[0], answer(fields[1], field))
		// Answer every request read before waiting for more (utf8cert sends several at
		// once): write the answers out unless a whole next request is already buffered.
		if next, _ := in.Peek(in.Buffered()); !bytes.Contains(next, []byte("\n")) && out.Flush() != nil {
			return
		}
	}
}
