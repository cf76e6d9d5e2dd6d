package graphql

import (
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// typeOf is the GraphQL object type of a world value, for fields of interface or union type.
func typeOf(v any) string {
	switch x := v.(type) {
	case *world.Repo:
		return "Repository"
	case *world.Issue:
		if x.IsPR {
			return "PullRequest"
		}
		return "Issue"
	case *world.Commit:
		return "Commit"
	case *world.Blob:
		return "Blob"
	case *world.Tree:
		return "Tree"
	case actor:
		if shapes.IsBot(string(x)) {
			return "Bot"
		}
		return "User"
	case *world.Review:
		return "PullRequestReview"
	case *world.Comment:
		return "IssueComment"
	case *world.CheckRun:
		return "CheckRun"
	case *world.CheckSuite:
		return "CheckSuite"
	case app:
		return "App"
	case wfRun:
		return "WorkflowRun"
	case workflow:
		return "Workflow"
	case *world.Status:
		return "StatusContext"
	case label:
		return "Label"
	case ref:
		return "Ref"
	case *world.TimelineEvent:
		return x.Kind
	case signature:
		return "GpgSignature"
	}
	return ""
}
