package model

import "strings"

// ParentRef is Run.Parent of a child started by stage of parent run.
func ParentRef(parentRun, stage string) string { return parentRun + "/" + stage }

// SplitParent splits Run.Parent into the parent run's id and the stage id.
func SplitParent(ref string) (run, stage string) {
	i := strings.LastIndexByte(ref, '/')
	if i < 0 {
		return "", ref
	}
	return ref[:i], ref[i+1:]
}
