package ghfake

import "github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"

// typeOf is the GraphQL object type of a world value, for fields of interface or union type.
func typeOf(v any) string {
	switch x := v.(type) {
	case *repo:
		return "Repository"
	case *issue:
		if x.IsPR {
			return "PullRequest"
		}
		return "Issue"
	case *commit:
		return "Commit"
	case *blob:
		return "Blob"
	case *tree:
		return "Tree"
	case actor:
		if shapes.IsBot(string(x)) {
			return "Bot"
		}
		return "User"
	case *review:
		return "PullRequestReview"
	case *comment:
		return "IssueComment"
	case *checkRun:
		return "CheckRun"
	case *checkSuite:
		return "CheckSuite"
	case app:
		return "App"
	case wfRun:
		return "WorkflowRun"
	case workflow:
		return "Workflow"
	case *status:
		return "StatusContext"
	case label:
		return "Label"
	case ref:
		return "Ref"
	case *timelineEvent:
		return x.Kind
	case signature:
		return "GpgSignature"
	}
	return ""
}
