package core

import (
	"github.com/org/pipeline-action/engine/lang"
)

func NamesOf(group []lang.Condition) []string {
	out := make([]string, len(group))
	for i, c := range group {
		out[i] = c.Check
	}
	return out
}
