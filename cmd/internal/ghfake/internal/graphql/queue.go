package graphql

import (
	"fmt"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// The merge queue as GraphQL shows it: enqueuePullRequest and dequeuePullRequest
// (https://docs.github.com/graphql/reference/mutations#enqueuepullrequest), a pull
// request's isInMergeQueue and mergeQueueEntry, and the entry's position and state.

func queueResolvers() {
	on("Mutation", map[string]resolver{
		"enqueuePullRequest": enqueueMutation,
		"dequeuePullRequest": dequeueMutation,
	})
	on("PullRequest", map[string]resolver{
		"isInMergeQueue": value(func(i *world.Issue) any { e, _ := world.EntryOf(i); return e != nil }),
		"mergeQueueEntry": value(func(i *world.Issue) any {
			if e, _ := world.EntryOf(i); e != nil {
				return e
			}
			return nil
		}),
	})
	on("Repository", map[string]resolver{
		// The queue of a branch whose protection requires one (null otherwise; the default
		// branch when none is named).
		"mergeQueue": func(_ *executor, p any, a map[string]any) (any, error) {
			r := p.(*world.Repo)
			branch := strArg(a, "branch")
			if branch == "" {
				branch = r.DefaultBranch
			}
			if pr := r.Settings.Protection[branch]; pr == nil || !pr.MergeQueue {
				return nil, nil
			}
			return mergeQueue{r, branch}, nil
		},
	})
	on("MergeQueue", map[string]resolver{
		"id": value(func(q mergeQueue) any { return world.RefNodeID(q.repo, "merge-queue/"+q.branch) }),
	})
	on("MergeQueueEntry", map[string]resolver{
		"id":          value(func(e *world.QueueEntry) any { return world.NodeID("MergeQueueEntry", e.ID) }),
		"position":    value(func(e *world.QueueEntry) any { _, at := world.EntryOf(e.PR); return at }),
		"state":       value(func(e *world.QueueEntry) any { return entryState(e) }),
		"enqueuedAt":  value(func(e *world.QueueEntry) any { return gqlTime(e.EnqueuedAt) }),
		"headCommit":  value(func(e *world.QueueEntry) any { return e.PR.Repo.Commits[e.Group] }),
		"baseCommit":  value(func(e *world.QueueEntry) any { return e.PR.Repo.Commits[e.BaseSHA] }),
		"pullRequest": value(func(e *world.QueueEntry) any { return e.PR }),
	})
}

// entryState is AWAITING_CHECKS while the entry is queued (its group's checks run from the
// moment it is built), or QUEUED once it left the queue unmerged.
func entryState(e *world.QueueEntry) string {
	if _, at := world.EntryOf(e.PR); at == 0 {
		return "QUEUED"
	}
	return "AWAITING_CHECKS"
}

// enqueueMutation adds the pull request pullRequestId to its base's merge queue, at
// expectedHeadOid when given, for a caller with write access (world.Queue.Enqueue says what
// GitHub refuses).
func enqueueMutation(e *executor, _ any, a map[string]any) (any, error) {
	in := input(a)
	id, _ := in["pullRequestId"].(string)
	pr, ok := e.s.findNode(id).(*world.Issue)
	if !ok || !pr.IsPR {
		return nil, fmt.Errorf("Could not resolve to a node with the global id of '%s'", id)
	}
	if err := e.mayWrite("EnqueuePullRequest"); err != nil {
		return nil, err
	}
	head, _ := in["expectedHeadOid"].(string)
	entry, why := e.s.Enqueue(pr, e.login, head)
	if entry == nil {
		return nil, errorOf("UNPROCESSABLE", "%s", why)
	}
	return shapes.Obj{"mergeQueueEntry": entry, "clientMutationId": in["clientMutationId"]}, nil
}

// dequeueMutation takes the pull request id out of its base's merge queue.
func dequeueMutation(e *executor, _ any, a map[string]any) (any, error) {
	in := input(a)
	id, _ := in["id"].(string)
	pr, ok := e.s.findNode(id).(*world.Issue)
	if !ok || !pr.IsPR {
		return nil, fmt.Errorf("Could not resolve to a node with the global id of '%s'", id)
	}
	if err := e.mayWrite("DequeuePullRequest"); err != nil {
		return nil, err
	}
	entry, _ := world.EntryOf(pr)
	if !e.s.Dequeue(pr) {
		return nil, errorOf("UNPROCESSABLE", "Pull request is not in the merge queue")
	}
	return shapes.Obj{"mergeQueueEntry": entry, "clientMutationId": in["clientMutationId"]}, nil
}

// mergeQueue is the merge queue of a repository's branch.
type mergeQueue struct {
	repo   *world.Repo
	branch string
}
