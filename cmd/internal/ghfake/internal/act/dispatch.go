package act

import (
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
)

// Assigned counts the times actor added login to the assignees of issue or pull request
// number of repoName (adding one already assigned changes nothing and is not counted).
func (s *Views) Assigned(repoName string, number int, actor, login string) int {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	n := 0
	for _, a := range s.AssignLog {
		if strings.EqualFold(a.Repo, repoName) && a.Number == number && a.Actor == actor && strings.EqualFold(a.Login, login) {
			n++
		}
	}
	return n
}

// Assignees returns the logins assigned to issue or pull request number of repoName.
func (s *Views) Assignees(repoName string, number int) []string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return append([]string(nil), s.MustIssue(s.MustRepo(repoName), number).Assignees...)
}

// WorkflowDispatchEvent is the workflow_dispatch event of a run of workflow (a file of
// .github/workflows) on ref, dispatched by sender with inputs: the payload the run reads
// from GITHUB_EVENT_PATH. GitHub sends no webhook for it to other workflows.
func (s *CI) WorkflowDispatchEvent(repoName, workflow, ref, sender string, inputs map[string]any) shapes.Event {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	return s.EventOf(r, "workflow_dispatch", "", sender, shapes.Obj{"inputs": inputs, "ref": "refs/heads/" + ref,
		"workflow": ".github/workflows/" + workflow})
}

// Labeled returns how many times actor added label (compared as GitHub compares labels) to
// issue or pull request number of repoName.
func (s *Views) Labeled(repoName string, number int, actor, label string) int {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	n := 0
	for _, ev := range s.MustIssue(s.MustRepo(repoName), number).Timeline {
		if ev.Kind == "LabeledEvent" && ev.Actor == actor && strings.EqualFold(ev.Label, label) {
			n++
		}
	}
	return n
}
