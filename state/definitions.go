package state

import (
	"encoding/json"
	"maps"
	"time"
)

// DefinitionsFile is the file of the state branch that says, for each pipeline of the
// config, a digest of its definition and since when the default branch has held it: a
// level-triggered start counts only a trigger that became true after that (engine
// Facts.Defined). It is repository-wide and small, and changes only with the config.
const DefinitionsFile = "definitions.json"

// Definition is a pipeline's entry in DefinitionsFile.
type Definition struct {
	Hash  string    `json:"hash"`
	Since time.Time `json:"since"`
}

type definitionsJSON struct {
	Version   int                   `json:"version"`
	Pipelines map[string]Definition `json:"pipelines"`
}

// Definitions is the record of DefinitionsFile as read (f, nil when absent; one that is
// not trusted — not the action's, or with a state key not signed with it — or does not
// decode counts as absent), brought up to date with hashes, the
// digests of the definitions of the config read, whose last change on the default
// branch was at configSince: a pipeline whose digest the record lacks or holds another
// of has been defined as it is since configSince at the latest. It returns since when
// each pipeline is defined so, and the file to write when the record changes (nil
// otherwise, and always with a zero configSince: then nothing is known of when).
func Definitions(f *BranchFile, viewer string, keys *Keys, hashes map[string]string, configSince time.Time) (map[string]time.Time, *FileChange) {
	old := map[string]Definition{}
	if f != nil && !f.Truncated && TrustFile(f, viewer) == "" && VerifyFile(f.Text, DefinitionsFile, "", keys) == "" {
		var d definitionsJSON
		unsigned, _ := splitFileMAC(f.Text)
		if strictJSON(unsigned, &d) == nil && d.Version == 1 {
			old = d.Pipelines
		}
	}
	if configSince.IsZero() {
		return nil, nil
	}
	next := make(map[string]Definition, len(hashes))
	since := make(map[string]time.Time, len(hashes))
	for name, h := range hashes {
		d, ok := old[name]
		if !ok || d.Hash != h || d.Since.IsZero() {
			d = Definition{Hash: h, Since: configSince.UTC()}
		}
		next[name], since[name] = d, d.Since
	}
	if f != nil && maps.EqualFunc(old, next, func(a, b Definition) bool { return a.Hash == b.Hash && a.Since.Equal(b.Since) }) {
		return since, nil
	}
	text, err := json.MarshalIndent(definitionsJSON{Version: 1, Pipelines: next}, "", "  ")
	if err != nil {
		return since, nil
	}
	signed, err := SignFile(string(text)+"\n", DefinitionsFile, "", keys)
	if err != nil {
		return since, nil
	}
	return since, &FileChange{Path: DefinitionsFile, Text: signed}
}
