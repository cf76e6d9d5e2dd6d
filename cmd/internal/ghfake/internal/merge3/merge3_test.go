package merge3

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestThreeWay(t *testing.T) {
	tests := []struct {
		name                   string
		ancestor, ours, theirs map[string]string
		want                   map[string]string
		conflicts              []string
	}{
		{name: "theirs unchanged keeps ours", ancestor: m("f", "a"), ours: m("f", "b"), theirs: m("f", "a"), want: m("f", "b")},
		{name: "ours unchanged takes theirs", ancestor: m("f", "a"), ours: m("f", "a"), theirs: m("f", "b"), want: m("f", "b")},
		{name: "theirs deletes", ancestor: m("f", "a"), ours: m("f", "a"), theirs: m(), want: m()},
		{name: "theirs adds", ancestor: m(), ours: m(), theirs: m("f", "a"), want: m("f", "a")},
		{name: "same change", ancestor: m("f", "a"), ours: m("f", "b"), theirs: m("f", "b"), want: m("f", "b")},
		{name: "both change", ancestor: m("f", "a"), ours: m("f", "b"), theirs: m("f", "c"), conflicts: []string{"f"}},
		{name: "ours deletes theirs changes", ancestor: m("f", "a"), ours: m(), theirs: m("f", "b"), conflicts: []string{"f"}},
		{name: "both add differently", ancestor: m(), ours: m("f", "a"), theirs: m("f", "b"), conflicts: []string{"f"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, conflicts := ThreeWay(tt.ancestor, tt.ours, tt.theirs, func(s string) string { return s })
			assert.Equal(t, tt.conflicts, conflicts)
			if tt.conflicts == nil {
				assert.Equal(t, tt.want, got)
			}
		})
	}
}

func m(kv ...string) map[string]string {
	out := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}
