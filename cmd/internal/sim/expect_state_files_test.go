package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// max_file_bytes bounds the files the action keeps on the state branch, names the largest,
// and does not count what the branch carries unchanged from the default branch.
func TestMaxFileBytes(t *testing.T) {
	type line struct {
		ok          bool
		want, found string
	}
	var got []line
	report := func(ok bool, _, want, found string) { got = append(got, line{ok, want, found}) }
	files := map[string]string{"pr-7.json": "0123456789", "index.json": "{}", ".github/pipelines.yaml": "a long config file"}
	inherited := map[string]string{".github/pipelines.yaml": "a long config file"}
	most := 10
	checkFileBytes(report, "state", files, inherited, &most)
	most = 9
	checkFileBytes(report, "state", files, inherited, &most)
	checkFileBytes(report, "state", files, nil, &most)
	checkFileBytes(report, "state", files, nil, nil)
	assert.Equal(t, []line{
		{true, "at most 10 bytes", "pr-7.json: 10 bytes"},
		{false, "at most 9 bytes", "pr-7.json: 10 bytes"},
		{false, "at most 9 bytes", ".github/pipelines.yaml: 18 bytes"},
	}, got)
}
