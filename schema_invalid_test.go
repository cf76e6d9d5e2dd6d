package pipelineaction_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
)

// invalidCase is a mistake that is a schema matter, in a config that is otherwise
// valid. at is the JSON pointer of the value the schema rejects (says, a phrase of its
// message, where the pointer it reports is not the value's: propertyNames); line is where
// the loader reports it, counting the comment line the test puts first.
type invalidCase struct {
	name string
	yaml string
	at   string
	says string
	line int
}

// TestInvalidRejectedByBoth: every schema-matter mistake is an error for both the schema
// and the loader, at the same place.
func TestInvalidRejectedByBoth(t *testing.T) {
	sch := compile(t)
	for _, tc := range slices.Concat(invalidShape, invalidRule) {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(strings.TrimPrefix(tc.yaml, "\n"))
			src = append([]byte("# "+tc.name+"\n"), src...)
			err := validate(sch, src)
			if assert.Error(t, err, "the schema accepts it") {
				var ve *jsonschema.ValidationError
				if assert.ErrorAs(t, err, &ve) {
					if tc.says != "" {
						assert.Contains(t, ve.Error(), tc.says, "the schema rejects it for another reason")
					} else {
						assert.Contains(t, locations(ve), tc.at, "the schema rejects it elsewhere:\n%s", ve)
					}
				}
			}
			all, pending := loaderVerdict(t, "case.yaml", src)
			if !assert.NotEmpty(t, all, "the loader accepts it") {
				return
			}
			var lines []int
			for _, e := range all {
				if !slices.Contains(pending, e) {
					lines = append(lines, e.Pos.Line)
				}
			}
			if len(lines) == 0 {
				t.Fatalf("the loader rejects it only as a check or key it does not know, which the schema names:\n%s", pending)
			}
			assert.Contains(t, lines, tc.line, "the loader rejects it elsewhere:\n%s", all)
		})
	}
}

// locations returns the instance locations of the innermost errors, as JSON pointers.
func locations(ve *jsonschema.ValidationError) []string {
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			p := ""
			for _, tok := range e.InstanceLocation {
				p += "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
			}
			out = append(out, p)
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

// oneStage is the config of one pipeline p whose one stage is stage, written as a flow
// mapping on line 5 (line 6 once the test's comment line is put first).
func oneStage(stage string) string {
	return "\nversion: 1\npipelines:\n  p:\n    stages:\n      - " + stage + "\n"
}
