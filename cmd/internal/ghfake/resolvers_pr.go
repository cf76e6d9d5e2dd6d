package ghfake

import (
	"fmt"
	"strings"
)

// subjectFields are the fields Issue and PullRequest share.
var subjectFields = map[string]resolver{
	"id": value(func(i *issue) any {
		if i.isPR {
			return nodeID("PullRequest", i.id)
		}
		return nodeID("Issue", i.id)
	}),
	"databaseId": value(func(i *issue) any { return i.id }),
	"number":     value(func(i *issue) any { return i.number }),
	"title":      value(func(i *issue) any { return i.title }),
	"body":       value(func(i *issue) any { return i.body }),
	"author":     value(func(i *issue) any { return actorOrNil(i.author) }),
	"createdAt":  value(func(i *issue) any { return gqlTime(i.createdAt) }),
	"updatedAt":  value(func(i *issue) any { return gqlTime(i.updatedAt) }),
	"closedAt":   value(func(i *issue) any { return gqlTime(i.closedAt) }),
	"closed":     value(func(i *issue) any { return i.state == "closed" }),
	"repository": value(func(i *issue) any { return i.repo }),
	"url": value(func(i *issue) any {
		kind := "issues"
		if i.isPR {
			kind = "pull"
		}
		return fmt.Sprintf("%s/%s/%s/%d", htmlBase, i.repo.fullName(), kind, i.number)
	}),
	"state": value(func(i *issue) any {
		if i.isPR {
			return prState(i)
		}
		return strings.ToUpper(i.state)
	}),
	"labels": func(_ *executor, p any, a map[string]any) (any, error) {
		i := p.(*issue)
		var items []any
		for _, n := range i.labels {
			items = append(items, label{i.repo, n})
		}
		return paginate("labels", items, a)
	},
	"comments": func(_ *executor, p any, a map[string]any) (any, error) {
		i := p.(*issue)
		var items []any
		for _, c := range i.repo.comments {
			if c.issue == i.number {
				items = append(items, c)
			}
		}
		return paginate("comments", items, a)
	},
}

// pullRequestResolvers serve an issue or pull request, and a pull request's commits and
// files.
func pullRequestResolvers() {
	on("Issue", subjectFields)
	on("PullRequest", subjectFields)
	on("PullRequest", map[string]resolver{
		"isDraft":   value(func(i *issue) any { return i.draft }),
		"merged":    value(func(i *issue) any { return i.merged }),
		"mergedAt":  value(func(i *issue) any { return gqlTime(i.mergedAt) }),
		"mergedBy":  value(func(i *issue) any { return actorOrNil(i.mergedBy) }),
		"mergeable": func(e *executor, p any, _ map[string]any) (any, error) { return e.s.mergeableFor(e, p.(*issue)), nil },
		"mergeStateStatus": func(e *executor, p any, _ map[string]any) (any, error) {
			return e.s.mergeStateStatus(e, p.(*issue)), nil
		},
		"baseRefName":         value(func(i *issue) any { return i.base }),
		"headRefName":         value(func(i *issue) any { return i.head }),
		"headRefOid":          value(func(i *issue) any { return i.headSHA }),
		"baseRefOid":          value(func(i *issue) any { return i.baseSHA }),
		"isCrossRepository":   value(func(i *issue) any { return i.crossRepo() }),
		"headRepository":      value(func(i *issue) any { return i.headRepository() }),
		"headRepositoryOwner": value(func(i *issue) any { return actor(i.headRepository().owner) }),
		"changedFiles":        value(func(i *issue) any { return len(i.files) }),
		"additions":           value(func(i *issue) any { return 10 * len(i.files) }),
		"deletions":           value(func(i *issue) any { return 2 * len(i.files) }),
		"headRef": value(func(i *issue) any {
			hr := i.headRepository()
			if i.branchDeleted || hr.branches[i.head] == nil {
				return nil
			}
			return ref{hr, i.head}
		}),
		"baseRef":     value(func(i *issue) any { return ref{i.repo, i.base} }),
		"mergeCommit": value(func(i *issue) any { return i.repo.commits[i.mergeCommitSHA] }),
		"reviews": func(_ *executor, p any, a map[string]any) (any, error) {
			i := p.(*issue)
			states, _ := a["states"].([]any)
			author := strArg(a, "author")
			var items []any
			for _, rv := range i.reviews {
				if matchState(states, rv.state) && (author == "" || author == rv.user) {
					items = append(items, rv)
				}
			}
			return paginate("reviews", items, a)
		},
		"commits": func(_ *executor, p any, a map[string]any) (any, error) {
			i := p.(*issue)
			var items []any
			for _, sha := range i.commits {
				items = append(items, prCommit{i.repo.commits[sha]})
			}
			return paginate("commits", items, a)
		},
		"files": func(_ *executor, p any, a map[string]any) (any, error) {
			var items []any
			for _, f := range p.(*issue).files {
				items = append(items, prFile{f})
			}
			return paginate("files", items, a)
		},
	})
	on("PullRequestCommit", map[string]resolver{
		"commit": value(func(c prCommit) any { return c.c }),
		"id":     value(func(c prCommit) any { return nodeID("PullRequestCommit", stableID(c.c.sha)) }),
	})
	on("PullRequestChangedFile", map[string]resolver{
		"path":       value(func(f prFile) any { return f.path }),
		"additions":  value(func(f prFile) any { return 10 }),
		"deletions":  value(func(f prFile) any { return 2 }),
		"changeType": value(func(f prFile) any { return "MODIFIED" }),
	})
}

// reviewResolvers serve the reviews of a pull request.
func reviewResolvers() {
	on("PullRequestReview", map[string]resolver{
		"id":          value(func(r *review) any { return nodeID("PullRequestReview", r.id) }),
		"databaseId":  value(func(r *review) any { return r.id }),
		"author":      value(func(r *review) any { return actorOrNil(r.user) }),
		"state":       value(func(r *review) any { return r.state }),
		"body":        value(func(r *review) any { return r.body }),
		"submittedAt": value(func(r *review) any { return gqlTime(r.submittedAt) }),
		"createdAt":   value(func(r *review) any { return gqlTime(r.submittedAt) }),
		"commit":      value(func(r *review) any { return r.pr.repo.commits[r.commitID] }),
		"pullRequest": value(func(r *review) any { return r.pr }),
		"authorCanPushToRepository": func(e *executor, p any, _ map[string]any) (any, error) {
			return canPush(e.s.permission(p.(*review).user)), nil
		},
		"authorAssociation": func(e *executor, p any, _ map[string]any) (any, error) {
			r := p.(*review)
			return e.s.association(r.pr.repo, r.user), nil
		},
	})
	// Database ids outgrew the Int of databaseId; fullDatabaseId is a BigInt.
	on("PullRequestReview", map[string]resolver{
		"fullDatabaseId": value(func(r *review) any { return r.id }),
	})
}

// commentResolvers serve the comments of an issue or pull request, and labels.
func commentResolvers() {
	on("IssueComment", map[string]resolver{
		"id":             value(func(c *comment) any { return nodeID("IssueComment", c.id) }),
		"databaseId":     value(func(c *comment) any { return c.id }), // an Int: refused above 2^31-1
		"fullDatabaseId": value(func(c *comment) any { return c.id }),
		"author":         value(func(c *comment) any { return actorOrNil(c.author) }),
		"editor":         value(func(c *comment) any { return actorOrNil(c.editor) }),
		"body":           value(func(c *comment) any { return c.body }),
		"createdAt":      value(func(c *comment) any { return gqlTime(c.createdAt) }),
		"updatedAt":      value(func(c *comment) any { return gqlTime(c.updatedAt) }),
		"lastEditedAt":   value(func(c *comment) any { return gqlTime(c.lastEditedAt) }),
		// GitHub keeps the original as the first edit once a comment is edited.
		"includesCreatedEdit": value(func(c *comment) any { return !c.lastEditedAt.IsZero() }),
		"viewerDidAuthor": func(e *executor, p any, _ map[string]any) (any, error) {
			return p.(*comment).author == e.login, nil
		},
		"isMinimized": value(func(c *comment) any { return false }),
	})
	on("Label", map[string]resolver{
		"id":          value(func(l label) any { return nodeID("Label", stableID(l.repo.fullName()+"#"+l.name)) }),
		"name":        value(func(l label) any { return l.name }),
		"color":       value(func(l label) any { return fmt.Sprintf("%06x", stableID(l.repo.fullName()+"#"+l.name)%0xffffff) }),
		"description": value(func(l label) any { return nil }),
	})
}

// actorOrNil is the actor for a login; "" (a deleted user, "ghost") is null.
func actorOrNil(login string) any {
	if login == "" {
		return nil
	}
	return actor(login)
}
