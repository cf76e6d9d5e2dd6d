package nodedigest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

func digest(t *testing.T, src string) string {
	t.Helper()
	var n yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(src), &n))
	return Of(&n)
}

// What a value says decides its digest; how it is written does not.
func TestDigest(t *testing.T) {
	base := digest(t, "a: 1\nb: [x, y]\nc: {d: true}\n")
	for name, same := range map[string]string{
		"comments and layout": "# note\nb:\n  - x\n  - y   # why\na: 1\nc:\n  d: true\n",
		"quotes and style":    "{\"a\": 1, 'b': [\"x\", y], c: {d: true}}",
	} {
		assert.Equal(t, base, digest(t, same), name)
	}
	for name, other := range map[string]string{
		"a value":          "a: 2\nb: [x, y]\nc: {d: true}\n",
		"a type":           "a: \"1\"\nb: [x, y]\nc: {d: true}\n",
		"a list's order":   "a: 1\nb: [y, x]\nc: {d: true}\n",
		"a key more":       "a: 1\nb: [x, y]\nc: {d: true, e: 1}\n",
		"a key's name":     "a: 1\nb: [x, y]\nc: {e: true}\n",
		"an empty for one": "a: 1\nb: [x, y]\nc: {d: }\n",
	} {
		assert.NotEqual(t, base, digest(t, other), name)
	}
}

// An alias counts as the value it names: an edit of the anchor changes the digest of
// every value that names it.
func TestDigestFollowsAliases(t *testing.T) {
	doc := func(t *testing.T, src string) *yaml.Node {
		var n yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(src), &n))
		return n.Content[0].Content[3] // the value of "p"
	}
	written := doc(t, "x: &s [a, b]\np: {stages: [a, b]}\n")
	aliased := doc(t, "x: &s [a, b]\np: {stages: *s}\n")
	edited := doc(t, "x: &s [a, c]\np: {stages: *s}\n")
	assert.Equal(t, Of(written), Of(aliased))
	assert.NotEqual(t, Of(aliased), Of(edited))
}
