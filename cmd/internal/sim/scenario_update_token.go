package sim

import (
	"encoding/json"
	"fmt"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// A branch update pushed with a workflow's GITHUB_TOKEN — the action's own with `token:
// github`, or another workflow's (`update_branch` as github-actions[bot]) — starts no
// workflow: no Actions job ever runs on that head. A `check` step completing a job of an
// Actions workflow there is a story GitHub cannot tell, and fails; a third-party app's check
// (`app:`) and a commit status may still come, as those services hear of every push.

// noteTokenHeads records the heads that events of updates made with GITHUB_TOKEN name.
func (s *simulation) noteTokenHeads(events []ghfake.Event) {
	for _, ev := range events {
		if ev.Name != "pull_request" || ev.Action != "synchronize" {
			continue
		}
		var p struct {
			After string `json:"after"`
		}
		if json.Unmarshal(ev.Payload, &p) == nil && p.After != "" {
			s.noteTokenHead(p.After)
		}
	}
}

func (s *simulation) noteTokenHead(sha string) {
	if s.tokenHeads == nil {
		s.tokenHeads = map[string]bool{}
	}
	s.tokenHeads[sha] = true
}

// ciCanRun refuses a check step that completes a job of an Actions workflow on a head
// GITHUB_TOKEN pushed.
func (s *simulation) ciCanRun(repo string, v *checkStep) error {
	head := s.fake.PR(repo, v.PR).HeadSHA
	if v.App != "" || !s.tokenHeads[head] {
		return nil
	}
	return fmt.Errorf("check: the head of #%d (%.7s) is a branch update pushed with a workflow's GITHUB_TOKEN, for which GitHub starts no workflow, so no Actions job ran on it "+
		"(give the scenario `token: app` for the action's updates, or play CI that is no Actions workflow with `app:` or a `status`)", v.PR, head)
}

// updateByToken plays update_branch as github-actions[bot]: another workflow updating the
// branch with its GITHUB_TOKEN, which starts no workflow.
func (s *simulation) updateByToken(repo string, v *prStep) ([]ghfake.Event, string, bool, error) {
	ev := s.fake.UpdateBranch(repo, v.PR, v.User)
	s.noteTokenHeads([]ghfake.Event{ev})
	return []ghfake.Event{ev}, fmt.Sprintf("update_branch #%d by %s (another workflow's GITHUB_TOKEN: GitHub starts no workflow)", v.PR, v.User), false, nil
}
