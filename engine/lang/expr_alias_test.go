package lang

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRenameRoot(t *testing.T) {
	for in, want := range map[string]string{
		`response.status == 200`:               `outputs .status == 200`,
		`outputs.json.response == "response"`:  `outputs.json.response == "response"`,
		`response?.json.ok && response.status`: `outputs ?.json.ok && outputs .status`,
		`{{ response.json.ok }}`:               `{{ outputs .json.ok }}`,
	} {
		assert.Equal(t, want, renameRoot(in, "response", "outputs"), in)
	}
}
