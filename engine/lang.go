package engine

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load"
)

// Load reads a pipeline config from one file with the evaluator's gates (load.Load with
// gates adapted to the language's registry).
func Load(file string, src []byte, gates GateRegistry) (*lang.Config, error) {
	return load.Load(file, src, langGates(gates))
}

// LoadFiles reads a config split over several files with the evaluator's gates
// (load.LoadFiles).
func LoadFiles(files []load.SourceFile, gates GateRegistry) (*lang.Config, error) {
	return load.LoadFiles(files, langGates(gates))
}

// LoadFilesToRun is LoadFiles for an invocation that runs the config: the same config
// and errors, without the passes that only warn (load.LoadFilesToRun).
func LoadFilesToRun(files []load.SourceFile, gates GateRegistry) (*lang.Config, error) {
	return load.LoadFilesToRun(files, langGates(gates))
}
