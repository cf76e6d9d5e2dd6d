package state

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	// docMarker is a hidden marker as the docs show it, with its kind and fields.
	docMarker = regexp.MustCompile(`<!-- pipeline-action:([a-z]+) ([^\x60]*?) -->`)
	// docField is one field of a marker in the docs: a <named placeholder>, or a literal.
	docField = regexp.MustCompile(`<[^>]+>|\S+`)
)

// markerRoles names, for each kind of marker and version, what the codec writes in each field
// after the kind, and the names the docs may give a field of that role.
func markerRoles(t *testing.T) map[string][][]string {
	key, err := NewKeys(strings.Repeat("k", 32))
	require.NoError(t, err)
	commit := strings.Repeat("a", 40)
	v3 := sealKeyed("status", 123, commit, "cGF5bG9hZA==", nil)
	v4 := sealKeyed("status", 123, commit, "cGF5bG9hZA==", key)
	names := func(marker string, roles ...[]string) [][]string {
		fields := strings.Fields(strings.TrimSuffix(strings.TrimPrefix(marker, "<!-- "), " -->"))
		require.Len(t, fields, 1+len(roles), "%s", marker)
		return append([][]string{{fields[1]}}, roles[1:]...)
	}
	id, com, bind, mac, payload := []string{"<comment id>"}, []string{"<commit>"}, []string{"<binding>", "<sha256>"}, []string{"<hmac>"}, []string{"<state>", "<payload>"}
	return map[string][][]string{
		"state v3":    names(v3, nil, id, com, bind, payload),
		"state v4":    names(v4, nil, id, com, bind, mac, payload),
		"placeholder": {{"<nonce>"}},
		"effect":      {{"<key>"}},
		// the codec's own literals, checked below against what it writes
		"prefix:state":       {{strings.Fields(v3)[1]}},
		"prefix:placeholder": {{strings.Fields(placeholderMarker("n"))[1]}},
		"prefix:effect":      {{strings.Fields(model.EffectMarker("k"))[1]}},
	}
}

// markerProblem says how a marker the docs show differs from what the codec writes, or "".
// roles is markerRoles; an ellipsis (…) stands for every field of a placeholder or effect.
func markerProblem(kind string, fields []string, roles map[string][][]string) string {
	if roles["prefix:"+kind] == nil {
		return "no marker of kind " + kind + " is written"
	}
	if roles["prefix:"+kind][0][0] != "pipeline-action:"+kind {
		return "the codec writes " + roles["prefix:"+kind][0][0]
	}
	want := roles[kind]
	if kind == "state" {
		if len(fields) == 0 {
			return "no version"
		}
		if want = roles["state "+fields[0]]; want == nil {
			return "version " + fields[0] + " is not one the codec writes (v3, or v4 with a state key)"
		}
	} else if len(fields) == 1 && fields[0] == "…" {
		return ""
	}
	if len(fields) != len(want) {
		return "has " + strings.Join(fields, " ") + ", the codec writes " + strings.Join(firsts(want), " ")
	}
	for i, f := range fields {
		if !slices.Contains(want[i], f) {
			return "field " + f + " is " + strings.Join(want[i], " or ") + " in what the codec writes"
		}
	}
	return ""
}

func firsts(roles [][]string) []string {
	var out []string
	for _, r := range roles {
		out = append(out, r[0])
	}
	return out
}

// TestMarkerProblem checks the comparison on made-up markers.
func TestMarkerProblem(t *testing.T) {
	roles := markerRoles(t)
	for _, tt := range []struct {
		doc  string
		want string // in the problem; "" for none
	}{
		{"<!-- pipeline-action:state v3 <comment id> <commit> <binding> <state> -->", ""},
		{"<!-- pipeline-action:state v4 <comment id> <commit> <sha256> <hmac> <state> -->", ""},
		{"<!-- pipeline-action:placeholder <nonce> -->", ""},
		{"<!-- pipeline-action:effect … -->", ""},
		{"<!-- pipeline-action:state v3 <comment id> <binding> <state> -->", "the codec writes v3 <comment id> <commit>"},
		{"<!-- pipeline-action:state v4 <comment id> <commit> <hmac> <sha256> <state> -->", "field <hmac> is <binding> or <sha256>"},
		{"<!-- pipeline-action:state v2 <comment id> <binding> <state> -->", "version v2 is not one"},
		{"<!-- pipeline-action:status <x> -->", "no marker of kind status"},
	} {
		m := docMarker.FindStringSubmatch(tt.doc)
		require.NotNil(t, m, tt.doc)
		got := markerProblem(m[1], docField.FindAllString(m[2], -1), roles)
		if tt.want == "" {
			assert.Empty(t, got, tt.doc)
		} else {
			assert.Contains(t, got, tt.want, tt.doc)
		}
	}
}

// TestDocsShowTheCodecsMarkers holds every hidden marker the README and the docs show to what
// the codec writes: the kind, the version, and the fields in their order.
func TestDocsShowTheCodecsMarkers(t *testing.T) {
	roles := markerRoles(t)
	var files []string
	for _, glob := range []string{"../*.md", "../docs/*.md", "../docs/*/*.md", "../examples/*/*.md"} {
		more, err := filepath.Glob(glob)
		require.NoError(t, err)
		files = append(files, more...)
	}
	shown := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range docMarker.FindAllStringSubmatch(string(b), -1) {
			fields := docField.FindAllString(m[2], -1)
			if p := markerProblem(m[1], fields, roles); p != "" {
				t.Errorf("%s shows %s: %s", f, m[0], p)
			}
			shown[m[1]+" "+fields[0]]++
		}
	}
	assert.Positive(t, shown["state v3"], "the docs show the state marker: %v", shown)
	assert.Positive(t, shown["state v4"], "the docs show the keyed state marker: %v", shown)
}
