package load

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

func TestSuggestExported(t *testing.T) {
	assert.Equal(t, "open_pr", lang.Suggest("opne_pr", []string{"close_pr", "open_pr", "review"}))
	assert.Equal(t, "", lang.Suggest("frobnicate", []string{"close_pr", "open_pr"}))
}

func TestYAMLSyntaxError(t *testing.T) {
	src := []byte("repo: acme/widgets\nsteps:\n  - open_pr: {number: 7\n")
	var n yaml.Node
	err := yaml.Unmarshal(src, &n)
	if !assert.Error(t, err) {
		return
	}
	e := YAMLSyntaxError("s.yaml", src, err)
	assert.Equal(t, `s.yaml:3:14: invalid YAML: this mapping is never closed; add the closing "}" [syntax]`, e.Error())
}
