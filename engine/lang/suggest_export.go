package lang

import (
	"bytes"

	"gopkg.in/yaml.v3"
)

// Suggest returns the candidate closest to got, for a "did you mean" hint, or "" when
// none is close enough: the rule config mistakes follow, for other files of the command
// line (scenarios).
func Suggest(got string, candidates []string) string { return suggest(got, candidates) }

// YAMLSyntaxError places an error of the YAML parser on file's src at the mistake and
// says what to change, as a syntax error of a config is reported.
func YAMLSyntaxError(file string, src []byte, err error) *Error {
	l := &loader{file: file, first: file, maxLine: bytes.Count(src, []byte("\n")) + 1}
	l.syntaxError(err, src)
	return l.errs[0]
}

// DescribeNode names a node's value for a type error, as config errors do: "a mapping",
// "a list", "null", or the quoted scalar.
func DescribeNode(n *yaml.Node) string { return describe(n) }
