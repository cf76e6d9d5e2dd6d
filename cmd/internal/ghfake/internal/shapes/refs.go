package shapes

import (
	"time"

	"fmt"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// RefJSON is a git reference object for branch b.
func (s *Shapes) RefJSON(r *world.Repo, b *world.Branch) Obj {
	fn := r.FullName()
	return Obj{
		"ref": "refs/heads/" + b.Name, "node_id": world.RefNodeID(r, b.Name),
		"url":    s.APIURL("/repos/%s/git/refs/heads/%s", fn, b.Name),
		"object": Obj{"type": "commit", "sha": b.Head, "url": s.APIURL("/repos/%s/git/commits/%s", fn, b.Head)},
	}
}

// CompareCommitJSON is a commit as the compare operation lists it.
func (s *Shapes) CompareCommitJSON(r *world.Repo, cm *world.Commit) Obj {
	fn := r.FullName()
	parents := []any{}
	for _, p := range cm.Parents {
		parents = append(parents, Obj{"sha": p, "url": s.APIURL("/repos/%s/commits/%s", fn, p)})
	}
	return Obj{
		"sha": cm.SHA, "node_id": world.NodeID("Commit", world.StableID(cm.SHA)),
		"url":      s.APIURL("/repos/%s/commits/%s", fn, cm.SHA),
		"html_url": fmt.Sprintf("%s/%s/commit/%s", HTMLBase, fn, cm.SHA),
		"commit": Obj{"message": cm.Message, "tree": Obj{"sha": world.FakeSHA("tree", cm.SHA)},
			"author": gitActorJSON(cm.Author), "committer": gitActorJSON(cm.Committer)},
		"parents": parents,
	}
}

// gitActorJSON is a commit's author or committer as REST's git commit objects give them.
func gitActorJSON(a world.GitActor) Obj {
	return Obj{"name": a.Name, "email": a.Email, "date": a.Date.UTC().Format(time.RFC3339)}
}
