package run

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// A config longer than GitHub's GraphQL gives of a file comes cut (isTruncated): the run
// refuses it with the reason and writes nothing, rather than loading a part of it.
func TestRunRefusesATruncatedConfig(t *testing.T) {
	cfg := exampleYAML(t) + "\n# " + strings.Repeat("padding ", 520_000/8) + "\n"
	h := newHarness(t, cfg)
	code, log, _, _ := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	assert.Equal(t, 1, code)
	assert.Contains(t, log, ".github/pipelines.yaml is too large to read")
	assert.Empty(t, h.Fake.Comments("acme/widgets", 7))
}
