package run

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/state"
)

// noteDefinitions tells the engine since when each pipeline's own definition is on the
// default branch (Facts.Defined), from the record on the state branch, and has the
// subject's next write of the branch bring the record up to date: one file more in a
// commit made anyway, never a call of its own. Until some subject's state is written the
// record may lag; a pipeline it lacks counts from the config's last change, as strict as
// can be.
func noteDefinitions(snap *ghapi.Snapshot, f *engine.Facts, branch *state.BranchStore) {
	if snap.Config == nil || f == nil {
		return
	}
	since, write := state.Definitions(snap.State.Definitions, snap.Viewer, DefinitionHashes(snap.Config), f.ConfigSince)
	f.Defined = since
	if write != nil && branch != nil {
		branch.AlsoWrite(*write)
	}
}

// DefinitionHashes are digests of each pipeline's own definition in the config's files:
// of its YAML value (anchors and merge keys resolved) as canonical JSON, so that neither
// comments, layout, key order nor an edit of another pipeline changes it. A file that
// does not parse gives none (the config loaded, so that is not expected).
func DefinitionHashes(c *ghapi.Config) map[string]string {
	out := map[string]string{}
	for _, file := range c.Files {
		var doc struct {
			Pipelines map[string]any `yaml:"pipelines"`
		}
		if yaml.Unmarshal([]byte(file.Text), &doc) != nil {
			continue
		}
		for name, def := range doc.Pipelines {
			b, err := json.Marshal(jsonable(def))
			if err != nil {
				continue
			}
			sum := sha256.Sum256(b)
			out[name] = hex.EncodeToString(sum[:])
		}
	}
	return out
}

// jsonable turns what YAML decodes into what JSON encodes: mappings with keys that are
// not strings get their keys spelt as strings.
func jsonable(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = jsonable(x)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[fmt.Sprint(k)] = jsonable(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = jsonable(x)
		}
		return out
	}
	return v
}
