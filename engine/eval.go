package engine

import "github.com/org/pipeline-action/engine/internal/core"

// eval is one evaluation: the state, facts and effects of package core's Eval, with the
// features of this package as its methods.
type eval struct{ *core.Eval }
