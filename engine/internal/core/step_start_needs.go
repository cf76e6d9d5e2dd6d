package core

import (
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// startNeeds is what the start an event asks for needs read: the permission of the actor
// of a comment a pipeline's trigger waits for, or of a workflow_dispatch naming a
// pipeline, and the teams of settings.chatops.from (MayCommandAs reads both).
func startNeeds(cfg *lang.Config, in model.Input) model.Needs {
	asks := in.Event == "workflow_dispatch" && in.Pipeline != ""
	for _, p := range cfg.Pipelines {
		asks = asks || (in.Event == "issue_comment.created" && p.Trigger.Event == in.Event)
	}
	if !asks {
		return model.Needs{}
	}
	n := model.Needs{Permissions: []string{in.Actor}}
	for _, name := range cfg.Settings.ChatOpsFrom {
		if g := cfg.Group(name); g != nil && !model.HasLogin(g.Users, in.Actor) {
			n.Teams = append(n.Teams, g.Teams...)
		}
	}
	return n
}

// isApp reports whether login is an app's ("<slug>[bot]").
func isApp(login string) bool { return strings.HasSuffix(strings.ToLower(login), "[bot]") }

// IsApp reports whether login is an app's ("<slug>[bot]").
func IsApp(login string) bool { return isApp(login) }
