package load

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// TestEntriesDuplicates checks that a duplicated key is reported at its second place
// and dropped, in a short mapping (searched) as in a long one (indexed).
func TestEntriesDuplicates(t *testing.T) {
	for _, n := range []int{4, 40} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var b strings.Builder
			for i := range n {
				fmt.Fprintf(&b, "k%d: %d\n", i, i)
			}
			b.WriteString("k1: again\n")
			fmt.Fprintf(&b, "k%d: again\n", n-1)
			var doc yaml.Node
			require.NoError(t, yaml.Unmarshal([]byte(b.String()), &doc))
			l := &loader{reader: reader{file: "f.yaml", maxLine: n + 2}}
			out := l.entries(doc.Content[0], "m", "the mapping")
			require.Len(t, out, n)
			assert.Equal(t, "1", out[1].val.Value)
			require.Len(t, l.errs, 2)
			assert.Equal(t, fmt.Sprintf("f.yaml:%d:1: key \"k1\" is duplicated in the mapping; previously defined at f.yaml:2:1 [key]", n+1), l.errs[0].Error())
			assert.Equal(t, fmt.Sprintf("f.yaml:%d:1: key \"k%d\" is duplicated in the mapping; previously defined at f.yaml:%d:1 [key]", n+2, n-1, n), l.errs[1].Error())
		})
	}
}
