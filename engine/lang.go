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
