package shapes

import "github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"

// PushEvent is the push event GitHub sends for p, with its one commit, as
// https://docs.github.com/webhooks/webhook-events-and-payloads#push describes it.
func (s *Shapes) PushEvent(r *world.Repo, p world.Push) Event {
	c := r.Commits[p.After]
	before, compare := p.Before, HTMLBase+"/"+r.FullName()+"/compare/"+p.Before+"..."+p.After
	if before == "" {
		// A new branch: GitHub names no commit before it, and compares nothing.
		before, compare = "0000000000000000000000000000000000000000", HTMLBase+"/"+r.FullName()+"/commit/"+p.After
	}
	head := Obj{
		"id":        c.SHA,
		"tree_id":   c.SHA,
		"distinct":  true,
		"message":   c.Message,
		"timestamp": c.Date.Format("2006-01-02T15:04:05Z07:00"),
		"url":       HTMLBase + "/" + r.FullName() + "/commit/" + c.SHA,
		"author":    Obj{"name": c.Author.Name, "email": c.Author.Email, "username": c.Author.Login},
		"committer": Obj{"name": c.Committer.Name, "email": c.Committer.Email, "username": c.Committer.Login},
		"added":     []string{},
		"removed":   []string{},
		"modified":  []string{},
	}
	payload := Obj{
		"ref":         "refs/heads/" + p.Branch,
		"before":      before,
		"after":       p.After,
		"created":     p.Before == "",
		"deleted":     false,
		"forced":      false,
		"base_ref":    nil,
		"compare":     compare,
		"commits":     []any{head},
		"head_commit": head,
		"pusher":      Obj{"name": p.Pusher, "email": nil},
	}
	return s.EventOf(r, "push", "", p.Pusher, payload)
}
