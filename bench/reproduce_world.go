// Direct reproducer of the world's Go standard-library configurations (issue 43): each API
// called as its documentation shows, with none of utf8cert's code. Built and run by
// bench/reproduce_world.py:
//
//	go build -o DIR/repro_go reproduce_world.go && DIR/repro_go MODE
//
// reads one hex input a line on stdin and writes `ok POINTS` (the code points read, 8 hex
// digits each, `-` for none) or `refused`. Modes: decode-last-rune (utf8.DecodeLastRune from
// the end of the input to its start, each rune kept, utf8.RuneError too),
// decode-last-rune-strict (the same, refused where it returns (RuneError, 1)) and xml-escape-text
// (xml.EscapeText of the input, read back by xml.Unmarshal as an element's chardata).
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// lastRunes returns the runes utf8.DecodeLastRune reads from the end of data to its start,
// in reading order, and whether it returned (RuneError, 1), its answer to an ill-formed byte.
func lastRunes(data []byte) ([]rune, bool) {
	var backwards []rune
	illFormed := false
	for end := len(data); end > 0; {
		r, size := utf8.DecodeLastRune(data[:end])
		backwards = append(backwards, r)
		illFormed = illFormed || r == utf8.RuneError && size == 1
		end -= size
	}
	runes := make([]rune, len(backwards))
	for i, r := range backwards {
		runes[len(runes)-1-i] = r
	}
	return runes, illFormed
}

func escapedAndReadBack(data []byte) ([]rune, error) {
	var escaped bytes.Buffer
	if err := xml.EscapeText(&escaped, data); err != nil {
		return nil, err
	}
	var element struct {
		Text string `xml:",chardata"`
	}
	document := append(append([]byte("<a>"), escaped.Bytes()...), "</a>"...)
	if err := xml.Unmarshal(document, &element); err != nil {
		return nil, err
	}
	return []rune(element.Text), nil
}

func main() {
	mode := os.Args[1]
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	for in.Scan() {
		data, _ := hex.DecodeString(strings.TrimPrefix(in.Text(), "-"))
		var runes []rune
		var err error
		switch mode {
		case "decode-last-rune":
			runes, _ = lastRunes(data)
		case "decode-last-rune-strict":
			var illFormed bool
			if runes, illFormed = lastRunes(data); illFormed {
				err = fmt.Errorf("(RuneError, 1)")
			}
		default:
			runes, err = escapedAndReadBack(data)
		}
		if err != nil {
			fmt.Println("refused")
			continue
		}
		var out strings.Builder
		for _, r := range runes {
			fmt.Fprintf(&out, "%08x", r)
		}
		if out.Len() == 0 {
			out.WriteString("-")
		}
		fmt.Println("ok " + out.String())
	}
}
