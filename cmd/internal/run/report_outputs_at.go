package run

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// outputsMistake reports err, a mistake in the outputs, and returns report's exit code 2: as
// file:line:col: message when they were read from a file and the mistake has a place, as an
// editor reads it; else (stdin, the input, outputs too large) with the command's name and
// usage (bad).
func outputsMistake(stderr io.Writer, file string, raw []byte, err error, bad func(string, ...any) int) int {
	if file == "" || file == "-" || len(bytes.TrimSpace(raw)) > maxOutputsBytes {
		return bad("%v", err)
	}
	fmt.Fprintln(stderr, outputsAt(file, raw, err))
	return 2
}

// outputsAt is err, a mistake in the outputs read from file, as file:line:col: message, at the
// place the JSON goes wrong (its start when it is whole but not one object). Outputs read from
// stdin or the input have no file, and err is returned as it is.
func outputsAt(file string, raw []byte, err error) error {
	if file == "" || file == "-" {
		return err
	}
	offset := int64(len(raw) - len(bytes.TrimLeft(raw, " \t\r\n")))
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	var syntax *json.SyntaxError
	switch derr := dec.Decode(&v); {
	case errors.As(derr, &syntax):
		offset = max(syntax.Offset-1, 0)
	case errors.Is(derr, io.ErrUnexpectedEOF):
		offset = int64(len(raw)) // cut short: the mistake is its end
	case derr == nil && dec.More():
		offset = dec.InputOffset()
		offset += int64(len(raw[offset:]) - len(bytes.TrimLeft(raw[offset:], " \t\r\n")))
	}
	offset = min(offset, int64(len(raw)))
	line := 1 + bytes.Count(raw[:offset], []byte("\n"))
	col := 1 + int(offset) - (bytes.LastIndexByte(raw[:offset], '\n') + 1)
	return fmt.Errorf("%s:%d:%d: %w", file, line, col, err)
}
