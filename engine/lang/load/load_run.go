package load

import "github.com/org/pipeline-action/engine/lang"

// LoadFilesToRun is LoadFiles for an invocation that runs the config: the same
// config and the same errors, but the passes that only find warnings (unreachable
// stages, pipelines that never run, events the action's token starts no workflow
// for) are skipped, as only `validate` and `doctor` show warnings. Config.Warnings
// may still hold the warnings of passes that also find errors.
func LoadFilesToRun(files []SourceFile, gates lang.GateRegistry) (*lang.Config, error) {
	return loadFiles(files, gates, false)
}
