package shapes

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// DispatchRunJSON is the workflow run object of the run dispatch d started (queued: the
// fake runs nothing by itself).
func (s *Shapes) DispatchRunJSON(r *world.Repo, d world.Dispatch) Obj {
	fn := r.FullName()
	wfID := WorkflowID(r, d.Workflow)
	url := s.APIURL("/repos/%s/actions/runs/%d", fn, d.RunID)
	head := ""
	if b := r.Branches[strings.TrimPrefix(d.Ref, "refs/heads/")]; b != nil {
		head = b.Head
	}
	actor := d.Actor
	if actor == "" {
		actor = world.BotLogin
	}
	return Obj{"id": d.RunID, "node_id": world.NodeID("WorkflowRun", d.RunID), "name": d.Name, "display_title": d.RunName,
		"path": ".github/workflows/" + d.Workflow, "head_branch": strings.TrimPrefix(d.Ref, "refs/heads/"), "head_sha": head,
		"run_number": d.RunID % 1000, "run_attempt": 1, "event": "workflow_dispatch", "status": "queued", "conclusion": nil,
		"workflow_id": wfID, "url": url, "html_url": fmt.Sprintf("%s/%s/actions/runs/%d", HTMLBase, fn, d.RunID),
		"pull_requests": []any{}, "created_at": TS(d.Created), "updated_at": TS(d.Created), "run_started_at": TS(d.Created),
		"actor": s.UserJSON(actor), "triggering_actor": s.UserJSON(actor),
		"workflow_url": s.APIURL("/repos/%s/actions/workflows/%d", fn, wfID)}
}
