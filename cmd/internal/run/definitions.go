package run

import (
	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/state"
)

// noteDefinitions tells the engine since when each pipeline's own definition is on the
// default branch (Facts.Defined), from the record on the state branch, and has the
// subject's next write of the branch bring the record up to date: one file more in a
// commit made anyway, never a call of its own. Until some subject's state is written the
// record may lag; a pipeline it lacks counts from the config's last change, as strict as
// can be. With a state key the record is signed with it, as the subjects' files are.
func noteDefinitions(snap *ghapi.Snapshot, cfg *lang.Config, keys *state.Keys, f *model.Facts, branch *state.BranchStore) {
	if snap.Config == nil || cfg == nil || f == nil {
		return
	}
	since, write := state.Definitions(snap.State.Definitions, snap.Viewer, keys, DefinitionHashes(cfg), f.ConfigSince)
	f.Defined = since
	if write != nil && branch != nil {
		branch.AlsoWrite(*write)
	}
}

// DefinitionHashes are the digests of each pipeline's own definition, as the loader took
// them from the YAML it parsed (lang.Pipeline.Digest): neither comments, layout, key
// order nor an edit of another pipeline changes one.
func DefinitionHashes(cfg *lang.Config) map[string]string {
	out := make(map[string]string, len(cfg.Pipelines))
	for _, p := range cfg.Pipelines {
		out[p.Name] = p.Digest
	}
	return out
}
