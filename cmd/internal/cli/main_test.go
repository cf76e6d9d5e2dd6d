package cli

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRunWithoutEventIsAUsageError(t *testing.T) {
	var buf bytes.Buffer
	code := Main([]string{"run"}, nil, &buf, &buf, func(string) string { return "" })
	assert.Equal(t, 2, code)
	assert.Contains(t, buf.String(), "GITHUB_EVENT_NAME")
}

func TestMainUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 2, Main(nil, nil, &out, &errOut, func(string) string { return "" }))
	assert.Contains(t, errOut.String(), "usage:")
	assert.Equal(t, 2, Main([]string{"frobnicate"}, nil, &out, &errOut, func(string) string { return "" }))
	assert.Contains(t, errOut.String(), `unknown command "frobnicate"`)
}
