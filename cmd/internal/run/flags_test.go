package run

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A mistyped flag gets a did-you-mean, like a mistyped command; one nothing is near gets
// only the error and the usage.
func TestParseFlagsSuggestsAFlag(t *testing.T) {
	for _, tt := range []struct {
		arg, want string
	}{
		{"--formt", "did you mean --format?\n"},
		{"-stirct", "did you mean --strict?\n"},
		{"--zzzzzz", ""},
	} {
		var stdout, stderr bytes.Buffer
		fl := NewFlagSet("validate", &stderr)
		fl.String("format", "text", "")
		fl.Bool("strict", false, "")
		_, code, ok := ParseFlags(fl, "usage: validate\n", []string{"a.yaml", tt.arg}, &stdout, &stderr)
		assert.False(t, ok, tt.arg)
		assert.Equal(t, 2, code, tt.arg)
		assert.Contains(t, stderr.String(), "flag provided but not defined", tt.arg)
		if tt.want == "" {
			assert.NotContains(t, stderr.String(), "did you mean", tt.arg)
		} else {
			assert.Contains(t, stderr.String(), tt.want, tt.arg)
		}
		assert.Empty(t, stdout.String(), tt.arg)
	}
}
