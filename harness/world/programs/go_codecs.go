// Go's standard library UTF-8 decoding and encoding over utf8cert-protocol 2
// (harness/PROTOCOL.md), one per MODE (built with plain `go build`, standard library only):
//
//	go_codecs MODE
//
//	utf8             decode: a utf8.DecodeRune loop, refused where it returns (RuneError, 1);
//	                 replace: the same loop keeping each RuneError; validate: utf8.Valid;
//	                 encode: utf8.AppendRune (it writes U+FFFD for a surrogate or a value
//	                 above U+10FFFF: that is its documented behaviour)
//	to-valid-utf8    replace: strings.ToValidUTF8(s, "\uFFFD") (one U+FFFD for a whole run)
//	runes            replace: the []rune(s) conversion; encode: the string(runes) conversion
//	                 (U+FFFD for a surrogate or a value above U+10FFFF, as the spec says)
//	range            replace: the runes a `for range` over the string yields
//	json             replace: encoding/json's Unmarshal of the bytes as a JSON string, and
//	                 json.Marshal of them as a Go string read back (both write U+FFFD: their
//	                 documented coercion to valid UTF-8); two modes: json-unmarshal, json-marshal
//	bufio-readrune   incremental (replace): bufio.Reader.ReadRune over the chunks, read in turn
//	decode-last-rune decode: a utf8.DecodeLastRune loop from the end (the backward decoder),
//	                 refused where it returns (RuneError, 1); replace: the same loop keeping it
//	xml-unmarshal    decode: encoding/xml's Unmarshal of <a>payload</a> (its chardata), which
//	                 refuses ill-formed UTF-8 ("invalid UTF-8"); no offset (it gives a line)
//	xml-escape-text  replace: xml.EscapeText of the bytes, read back by xml.Unmarshal (it writes
//	                 U+FFFD for an ill-formed byte: its documented behaviour)
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

const empty = "-"

func bytesOf(field string) ([]byte, error) {
	if field == empty {
		return nil, nil
	}
	return hex.DecodeString(field)
}

func hexOfRunes(runes []rune) string {
	if len(runes) == 0 {
		return empty
	}
	var out strings.Builder
	for _, r := range runes {
		// A rune is int32; the protocol carries its bits as eight hex digits.
		fmt.Fprintf(&out, "%08x", uint32(r))
	}
	return out.String()
}

func hexOfBytes(data []byte) string {
	if len(data) == 0 {
		return empty
	}
	return hex.EncodeToString(data)
}

// runesOf reads code points as UTF-32BE; a value above 0x7FFFFFFF becomes a negative rune,
// which Go's encoders take as invalid, as they take any value they cannot encode.
func runesOf(data []byte) []rune {
	var values []rune
	for i := 0; i+4 <= len(data); i += 4 {
		values = append(values, rune(uint32(data[i])<<24|uint32(data[i+1])<<16|uint32(data[i+2])<<8|uint32(data[i+3])))
	}
	return values
}

// decodeRunes walks data with utf8.DecodeRune; strict stops at the first (RuneError, 1).
func decodeRunes(data []byte, strict bool) ([]rune, int) {
	var runes []rune
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 && strict {
			return runes, i
		}
		runes = append(runes, r)
		i += size
	}
	return runes, -1
}

// decodeLastRunes walks data backwards with utf8.DecodeLastRune; strict stops at the last
// (RuneError, 1) met, the offset of that byte. The runes come back in reading order.
func decodeLastRunes(data []byte, strict bool) ([]rune, int) {
	var backwards []rune
	for end := len(data); end > 0; {
		r, size := utf8.DecodeLastRune(data[:end])
		end -= size
		if r == utf8.RuneError && size == 1 && strict {
			// The first error in reading order is the one a strict decoder reports: go on.
			runes, at := decodeLastRunes(data[:end], true)
			if at >= 0 {
				return runes, at
			}
			return runes, end
		}
		backwards = append(backwards, r)
	}
	for i, j := 0, len(backwards)-1; i < j; i, j = i+1, j-1 {
		backwards[i], backwards[j] = backwards[j], backwards[i]
	}
	return backwards, -1
}

// xmlElementOf writes the bytes as the text of <a>: <, &, > and CR as references; every other
// byte as it is. ok is false for a character XML 1.0 cannot hold (a C0 control but tab, LF,
// CR; U+FFFE; U+FFFF), named in the message.
func xmlElementOf(data []byte) ([]byte, string, bool) {
	out := []byte("<a>")
	for i, b := range data {
		switch {
		case b == '<':
			out = append(out, "&lt;"...)
		case b == '&':
			out = append(out, "&amp;"...)
		case b == '>':
			out = append(out, "&gt;"...)
		case b == '\r':
			out = append(out, "&#13;"...)
		case b < 0x20 && b != '\t' && b != '\n':
			return nil, fmt.Sprintf("XML 1.0 cannot carry U+%04X (§2.2 Char)", b), false
		case b == 0xEF && i+2 < len(data) && data[i+1] == 0xBF && data[i+2]&0xFE == 0xBE:
			return nil, fmt.Sprintf("XML 1.0 cannot carry U+%04X (§2.2 Char)", 0xFFFE+int(data[i+2]&1)), false
		default:
			out = append(out, b)
		}
	}
	return append(out, "</a>"...), "", true
}

type element struct {
	Text string `xml:",chardata"`
}

// jsonStringOf writes the bytes as a JSON string: only the ASCII that JSON must escape is
// escaped, as \u00XX, so every other byte reaches the decoder as it is.
func jsonStringOf(data []byte) []byte {
	out := []byte{'"'}
	for _, b := range data {
		if b < 0x20 || b == '"' || b == '\\' {
			out = append(out, fmt.Sprintf("\\u%04x", b)...)
		} else {
			out = append(out, b)
		}
	}
	return append(out, '"')
}

// chunkReader hands out one chunk per Read, so that ReadRune meets every cut.
type chunkReader struct{ chunks [][]byte }

func (c *chunkReader) Read(p []byte) (int, error) {
	for len(c.chunks) > 0 && len(c.chunks[0]) == 0 {
		c.chunks = c.chunks[1:]
	}
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.chunks[0])
	c.chunks[0] = c.chunks[0][n:]
	return n, nil
}

func readRunes(chunks [][]byte) ([]rune, error) {
	reader := bufio.NewReader(&chunkReader{chunks})
	var runes []rune
	for {
		r, _, err := reader.ReadRune()
		if err == io.EOF {
			return runes, nil
		}
		if err != nil {
			return nil, err
		}
		runes = append(runes, r)
	}
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func answer(mode, line string) string {
	fields := strings.Split(line, " ")
	operation := fields[0]
	// An incremental request's first field is its F flag, not bytes.
	first := 1
	if operation == "incremental" {
		first = 2
	}
	var chunks [][]byte
	for _, field := range fields[min(first, len(fields)):] {
		data, err := bytesOf(field)
		if err != nil {
			return "crash bad request: " + err.Error()
		}
		chunks = append(chunks, data)
	}
	data := []byte{}
	if len(chunks) > 0 {
		data = chunks[0]
	}
	switch mode + " " + operation {
	case "utf8 decode":
		runes, at := decodeRunes(data, true)
		if at >= 0 {
			return fmt.Sprintf("refused %d utf8.DecodeRune returned (RuneError, 1)", at)
		}
		return "ok " + hexOfRunes(runes)
	case "utf8 replace":
		runes, _ := decodeRunes(data, false)
		return "ok " + hexOfRunes(runes)
	case "utf8 validate":
		return fmt.Sprintf("ok %t", utf8.Valid(data))
	case "utf8 encode":
		var out []byte
		for _, value := range runesOf(data) {
			out = utf8.AppendRune(out, value)
		}
		return "ok " + hexOfBytes(out)
	case "runes encode":
		return "ok " + hexOfBytes([]byte(string(runesOf(data))))
	case "to-valid-utf8 replace":
		return "ok " + hexOfRunes([]rune(strings.ToValidUTF8(string(data), "\uFFFD")))
	case "runes replace":
		return "ok " + hexOfRunes([]rune(string(data)))
	case "range replace":
		var runes []rune
		for _, r := range string(data) {
			runes = append(runes, r)
		}
		return "ok " + hexOfRunes(runes)
	case "json-unmarshal replace":
		var text string
		if err := json.Unmarshal(jsonStringOf(data), &text); err != nil {
			return "crash " + err.Error()
		}
		return "ok " + hexOfRunes([]rune(text))
	case "json-marshal replace":
		encoded, err := json.Marshal(string(data))
		var text string
		if err == nil {
			err = json.Unmarshal(encoded, &text)
		}
		if err != nil {
			return "crash " + err.Error()
		}
		return "ok " + hexOfRunes([]rune(text))
	case "decode-last-rune decode":
		runes, at := decodeLastRunes(data, true)
		if at >= 0 {
			return fmt.Sprintf("refused %d utf8.DecodeLastRune returned (RuneError, 1)", at)
		}
		return "ok " + hexOfRunes(runes)
	case "decode-last-rune replace":
		runes, _ := decodeLastRunes(data, false)
		return "ok " + hexOfRunes(runes)
	case "xml-unmarshal decode":
		document, why, ok := xmlElementOf(data)
		if !ok {
			return "inapplicable " + why
		}
		var parsed element
		if err := xml.Unmarshal(document, &parsed); err != nil {
			return "refused - " + strings.ReplaceAll(err.Error(), "\n", " ")
		}
		return "ok " + hexOfRunes([]rune(parsed.Text))
	case "xml-escape-text replace":
		if _, why, ok := xmlElementOf(data); !ok {
			return "inapplicable " + why
		}
		var escaped bytes.Buffer
		if err := xml.EscapeText(&escaped, data); err != nil {
			return "crash " + err.Error()
		}
		var parsed element
		document := append(append([]byte("<a>"), escaped.Bytes()...), "</a>"...)
		if err := xml.Unmarshal(document, &parsed); err != nil {
			return "crash " + err.Error()
		}
		return "ok " + hexOfRunes([]rune(parsed.Text))
	case "bufio-readrune incremental":
		// F (fields[1]) only says whether an empty final chunk follows: a reader has no
		// "final" flag, its end is the end of the input either way.
		runes, err := readRunes(chunks)
		if err != nil {
			return "crash " + err.Error()
		}
		return "ok " + hexOfRunes(runes)
	}
	return "crash unknown request " + operation
}

var capabilities = map[string]string{
	"utf8":             "decode replace validate encode",
	"to-valid-utf8":    "replace",
	"runes":            "replace encode",
	"range":            "replace",
	"json-unmarshal":   "replace",
	"json-marshal":     "replace",
	"bufio-readrune":   "incremental incremental=replace",
	"decode-last-rune": "decode replace",
	"xml-unmarshal":    "decode",
	"xml-escape-text":  "replace",
}

func main() {
	mode := ""
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	offered, known := capabilities[mode]
	if !known {
		fmt.Fprintln(os.Stderr, "usage: go_codecs MODE (utf8, to-valid-utf8, runes, range, json-unmarshal, json-marshal, bufio-readrune, decode-last-rune, xml-unmarshal, xml-escape-text)")
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(out, "utf8cert-protocol 2 %s\n", offered)
	out.Flush()
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	for {
		line, err := in.ReadString('\n')
		if len(line) == 0 && err != nil {
			return
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		id, request, _ := strings.Cut(line, " ")
		fmt.Fprintf(out, "%s %s\n", id, answer(mode, request))
		// Answers go out together, but never while the program waits for input: unless a
		// whole next request is already buffered.
		if next, _ := in.Peek(in.Buffered()); !bytes.Contains(next, []byte("\n")) && out.Flush() != nil {
			return
		}
	}
}
