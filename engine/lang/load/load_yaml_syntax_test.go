package load

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// TestYAMLSyntaxPositions checks the position and message of syntax errors the golden
// files do not show: errors on the first line (where the parser names no line), in
// block scalars, in CRLF files, and the fallback.
func TestYAMLSyntaxPositions(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"tab in a block scalar's indentation", "a:\n  b: |\n    x\n\ty\n",
			"4:1: invalid YAML: tab characters are not allowed in indentation; use spaces"},
		{"tab after a mapping value's line", "a:\n  b: x\n\t  c: y\n",
			"3:1: invalid YAML: tab characters are not allowed in indentation; use spaces"},
		{"reserved character on the first line", "a: `b`\n",
			"1:4: invalid YAML: \"`\" is reserved and cannot start a value; put the value in quotes"},
		{"list on the key's line, first line", "a: - b\n",
			"1:4: invalid YAML: a list cannot start on the same line as its key; put each \"- item\" on a line of its own, indented under the key"},
		{"unclosed list on the first line", "a: [x, y\nb: 1\n",
			"1:4: invalid YAML: this list is never closed; add the closing \"]\""},
		{"the outer list is the unclosed one", "a:\n  b: [x, [y, z]\n  c: 1\n",
			"2:6: invalid YAML: this list is never closed; add the closing \"]\""},
		{"a closed quote before the unclosed one", "a: 1\n\"b\": 'it''s\nc: 2\n",
			"2:6: invalid YAML: this quoted value is never closed; add the closing '"},
		{"a missing comma in a closed flow list", "a: [x, \"y\" z]\n",
			"1:12: invalid YAML: expected \",\" or \"]\" here; separate the items of a flow list with commas"},
		{"dedent to no block", "a:\n  b: 1\n c: 2\n",
			"3:2: invalid YAML: this line is indented by 1 space, which matches no block above it (the nearest blocks above it are indented by 0 and 2 spaces); indent it like the lines it belongs with"},
		{"a key among list items", "a:\n  - b\n  c: 1\n",
			"3:3: invalid YAML: expected a list item (\"- …\") here, like the lines above at this indentation"},
		{"a block scalar's content is not an open block", "a:\n  b: |\n      text\n     c: 1\n",
			"4:6: invalid YAML: this line is indented by 5 spaces, which matches no block above it (the innermost block above it is indented by 2 spaces); indent it like the lines it belongs with"},
		{"over-indented key under a value on the first line", "a: 1\n  b: 2\n",
			"2:4: invalid YAML: unexpected \":\": this line is indented more than \"a\" above it, so it reads as the rest of that value; align it with \"a\" (column 1) to make it a key of the same mapping, or quote the value"},
		{"CRLF line ends", "a:\r\n  b: 1\r\n\t c: 2\r\n",
			"3:1: invalid YAML: tab characters are not allowed in indentation; use spaces"},
		{"multi-byte characters count as one column", "a: \"é\" ü\n",
			"1:9: invalid YAML: unexpected text after the value; quote the whole value, or start a new line for a new key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load("f.yaml", []byte(tt.src), fakeRegistry{})
			require.Error(t, err)
			assert.Equal(t, "f.yaml:"+tt.want+" [syntax]", err.Error())
		})
	}
}

// TestYAMLSyntaxFallback checks that a file too large to probe within the budget is reported at the
// parser's line, column 1, with its message.
func TestYAMLSyntaxFallback(t *testing.T) {
	src := []byte("a: 1\n" + strings.Repeat("# padding\n", 3<<20/10) + "b:\n\tc: 1\n")
	_, err := Load("f.yaml", src, fakeRegistry{})
	require.Error(t, err)
	var doc yaml.Node
	parserErr := yaml.Unmarshal(src, &doc)
	require.Error(t, parserErr)
	problem, line := splitYAMLError(parserErr)
	assert.Equal(t, "f.yaml:"+strconv.Itoa(line)+":1: invalid YAML: "+problem+" [syntax]", err.Error())
}

// TestYAMLSyntaxProbeBudget feeds lines that would cost a parse per character if every
// candidate were tried: the locator stays within its budget of parses and still names a
// line of the file.
func TestYAMLSyntaxProbeBudget(t *testing.T) {
	tests := []struct {
		name string
		src  []byte
		want string // line:col: message
	}{
		{"many openers", []byte("a: " + strings.Repeat("[", 20000) + "\n"), "1:10004: exceeded max depth of 10000"},
		{"many closed lists", []byte("a: [" + strings.Repeat("[x], ", 20000) + "\"y\" z]\n"),
			"1:100009: expected \",\" or \"]\" here; separate the items of a flow list with commas"},
		{"many quotes", []byte("a: 1\nb: " + strings.Repeat("\"x\" ", 20000) + "\"\n"),
			"2:8: unexpected text after the value; quote the whole value, or start a new line for a new key"},
		{"many bad indents", bytes.Repeat([]byte("a:\n    b: 1\n  c: 2\n"), 5000),
			"3:3: this line is indented by 2 spaces, which matches no block above it (the nearest blocks above it are indented by 0 and 4 spaces); indent it like the lines it belongs with"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc yaml.Node
			parserErr := decodeYAML(tt.src, &doc)
			require.Error(t, parserErr)
			y := newYAMLSyntax(tt.src, parserErr)
			line, col, msg := y.locate()
			assert.GreaterOrEqual(t, y.probes, 0)
			assert.Equal(t, tt.want, fmt.Sprintf("%d:%d: %s", line, col, msg))
		})
	}
}
