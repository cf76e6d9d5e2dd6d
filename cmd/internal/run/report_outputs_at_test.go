package run

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A mistake in outputs read from a file is placed where the JSON goes wrong.
func TestOutputsAt(t *testing.T) {
	for _, tt := range []struct{ raw, want string }{
		{"{\n  \"a\": 1,\n  \"b\": tru\n}\n", "o.json:3:11: "},
		{"\n\n  {\"a\": 1,,}", "o.json:3:11: "},
		{"[1, 2]\n", "o.json:1:1: "},
		{"  \n \"text\"", "o.json:2:2: "},
		{"{\"a\": 1}\n{\"b\": 2}\n", "o.json:2:1: "},
		{"{\"a\": ", "o.json:1:7: "},
	} {
		_, err := decodeOutputs([]byte(tt.raw))
		if !assert.Error(t, err, tt.raw) {
			continue
		}
		got := outputsAt("o.json", []byte(tt.raw), err)
		assert.Equal(t, tt.want+err.Error(), got.Error(), "%q", tt.raw)
		assert.ErrorIs(t, got, err)
	}
	plain := errors.New("x")
	assert.Equal(t, plain, outputsAt("-", []byte("[]"), plain), "stdin has no file")
	assert.Equal(t, plain, outputsAt("", []byte("[]"), plain), "the input has no file")
}

// report prints a mistake in an --outputs file as file:line:col: message, first on its line.
func TestOutputsMistakePrintsFileLineCol(t *testing.T) {
	var stderr bytes.Buffer
	bad := func(string, ...any) int { t.Fatal("a file's mistake is not a usage mistake"); return 0 }
	_, err := decodeOutputs([]byte("[1]"))
	assert.Equal(t, 2, outputsMistake(&stderr, "out.json", []byte("[1]"), err, bad))
	assert.Equal(t, "out.json:1:1: "+err.Error()+"\n", stderr.String())
	called := false
	outputsMistake(&stderr, "-", []byte("[1]"), err, func(string, ...any) int { called = true; return 2 })
	assert.True(t, called, "stdin's mistake goes with the usage")
}
