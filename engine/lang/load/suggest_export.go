package load

import (
	"bytes"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// YAMLSyntaxError places an error of the YAML parser on file's src at the mistake and
// says what to change, as a syntax error of a config is reported.
func YAMLSyntaxError(file string, src []byte, err error) *lang.Error {
	l := &loader{reader: reader{file: file, maxLine: bytes.Count(src, []byte("\n")) + 1}, first: file}
	l.syntaxError(err, src)
	return l.errs[0]
}

// DescribeNode names a node's value for a type error, as config errors do: "a mapping",
// "a list", "null", or the quoted scalar.
func DescribeNode(n *yaml.Node) string { return describe(n) }
