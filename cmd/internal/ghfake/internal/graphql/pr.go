package graphql

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// subjectFields are the fields Issue and PullRequest share.
var subjectFields = map[string]resolver{
	"id": value(func(i *world.Issue) any {
		if i.IsPR {
			return world.NodeID("PullRequest", i.ID)
		}
		return world.NodeID("Issue", i.ID)
	}),
	"databaseId": value(func(i *world.Issue) any { return i.ID }),
	"number":     value(func(i *world.Issue) any { return i.Number }),
	"title":      value(func(i *world.Issue) any { return i.Title }),
	"body":       value(func(i *world.Issue) any { return i.Body }),
	"author":     value(func(i *world.Issue) any { return actorOrNil(i.Author) }),
	"createdAt":  value(func(i *world.Issue) any { return gqlTime(i.CreatedAt) }),
	"updatedAt":  value(func(i *world.Issue) any { return gqlTime(i.UpdatedAt) }),
	"closedAt":   value(func(i *world.Issue) any { return gqlTime(i.ClosedAt) }),
	"closed":     value(func(i *world.Issue) any { return i.State == "closed" }),
	"repository": value(func(i *world.Issue) any { return i.Repo }),
	"url": value(func(i *world.Issue) any {
		kind := "issues"
		if i.IsPR {
			kind = "pull"
		}
		return fmt.Sprintf("%s/%s/%s/%d", shapes.HTMLBase, i.Repo.FullName(), kind, i.Number)
	}),
	"state": value(func(i *world.Issue) any {
		if i.IsPR {
			return prState(i)
		}
		return strings.ToUpper(i.State)
	}),
	"labels": func(_ *executor, p any, a map[string]any) (any, error) {
		i := p.(*world.Issue)
		var items []any
		for _, n := range i.Labels {
			items = append(items, label{i.Repo, n})
		}
		return paginate("labels", items, a)
	},
	"comments": func(_ *executor, p any, a map[string]any) (any, error) {
		i := p.(*world.Issue)
		var items []any
		for _, c := range i.Repo.Comments {
			if c.Issue == i.Number {
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
		"isDraft":  value(func(i *world.Issue) any { return i.Draft }),
		"merged":   value(func(i *world.Issue) any { return i.Merged }),
		"mergedAt": value(func(i *world.Issue) any { return gqlTime(i.MergedAt) }),
		"mergedBy": value(func(i *world.Issue) any { return actorOrNil(i.MergedBy) }),
		"mergeable": func(e *executor, p any, _ map[string]any) (any, error) {
			return e.s.MergeableFor(e, p.(*world.Issue)), nil
		},
		"mergeStateStatus": func(e *executor, p any, _ map[string]any) (any, error) {
			return e.s.MergeStateStatus(e, p.(*world.Issue), e.login), nil
		},
		"baseRefName":         value(func(i *world.Issue) any { return i.Base }),
		"headRefName":         value(func(i *world.Issue) any { return i.Head }),
		"headRefOid":          value(func(i *world.Issue) any { return i.HeadSHA }),
		"baseRefOid":          value(func(i *world.Issue) any { return i.BaseSHA }),
		"isCrossRepository":   value(func(i *world.Issue) any { return i.CrossRepo() }),
		"maintainerCanModify": value(func(i *world.Issue) any { return i.CrossRepo() && !i.NoMaintainerEdits }),
		"headRepository":      value(func(i *world.Issue) any { return i.HeadRepository() }),
		"headRepositoryOwner": value(func(i *world.Issue) any { return actor(i.HeadRepository().Owner) }),
		"changedFiles":        value(func(i *world.Issue) any { return len(i.Files) }),
		"additions":           value(func(i *world.Issue) any { return 10 * len(i.Files) }),
		"deletions":           value(func(i *world.Issue) any { return 2 * len(i.Files) }),
		"headRef": value(func(i *world.Issue) any {
			hr := i.HeadRepository()
			if i.BranchDeleted || hr.Branches[i.Head] == nil {
				return nil
			}
			return ref{hr, i.Head}
		}),
		"baseRef":     value(func(i *world.Issue) any { return ref{i.Repo, i.Base} }),
		"mergeCommit": value(func(i *world.Issue) any { return i.Repo.Commits[i.MergeCommitSHA] }),
		"reviews": func(_ *executor, p any, a map[string]any) (any, error) {
			i := p.(*world.Issue)
			states, _ := a["states"].([]any)
			author := strArg(a, "author")
			var items []any
			for _, rv := range i.Reviews {
				if matchState(states, rv.State) && (author == "" || author == rv.User) {
					items = append(items, rv)
				}
			}
			return paginate("reviews", items, a)
		},
		"commits": func(_ *executor, p any, a map[string]any) (any, error) {
			i := p.(*world.Issue)
			var items []any
			for _, sha := range i.Commits {
				items = append(items, prCommit{i.Repo.Commits[sha]})
			}
			return paginate("commits", items, a)
		},
		"files": func(_ *executor, p any, a map[string]any) (any, error) {
			var items []any
			for _, f := range p.(*world.Issue).Files {
				items = append(items, prFile{f})
			}
			return paginate("files", items, a)
		},
	})
	on("PullRequestCommit", map[string]resolver{
		"commit": value(func(c prCommit) any { return c.c }),
		"id":     value(func(c prCommit) any { return world.NodeID("PullRequestCommit", world.StableID(c.c.SHA)) }),
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
		"id":           value(func(r *world.Review) any { return world.NodeID("PullRequestReview", r.ID) }),
		"databaseId":   value(func(r *world.Review) any { return r.ID }),
		"author":       value(func(r *world.Review) any { return actorOrNil(r.User) }),
		"state":        value(func(r *world.Review) any { return r.State }),
		"body":         value(func(r *world.Review) any { return r.Body }),
		"editor":       value(func(r *world.Review) any { return actorOrNil(r.Editor) }),
		"lastEditedAt": value(func(r *world.Review) any { return gqlTime(r.LastEditedAt) }),
		// GitHub keeps the original as the first edit once a review's body is edited.
		"includesCreatedEdit": value(func(r *world.Review) any { return !r.LastEditedAt.IsZero() }),
		"submittedAt":         value(func(r *world.Review) any { return gqlTime(r.SubmittedAt) }),
		"createdAt":           value(func(r *world.Review) any { return gqlTime(r.SubmittedAt) }),
		"commit":              value(func(r *world.Review) any { return r.Pr.Repo.Commits[r.CommitID] }),
		"pullRequest":         value(func(r *world.Review) any { return r.Pr }),
		"authorCanPushToRepository": func(e *executor, p any, _ map[string]any) (any, error) {
			return world.CanPush(e.s.PermissionOf(p.(*world.Review).User)), nil
		},
		"authorAssociation": func(e *executor, p any, _ map[string]any) (any, error) {
			r := p.(*world.Review)
			return e.s.Association(r.Pr.Repo, r.User), nil
		},
	})
	// Database ids outgrew the Int of databaseId; fullDatabaseId is a BigInt.
	on("PullRequestReview", map[string]resolver{
		"fullDatabaseId": value(func(r *world.Review) any { return r.ID }),
	})
}

// commentResolvers serve the comments of an issue or pull request, and labels.
func commentResolvers() {
	on("IssueComment", map[string]resolver{
		"id":             value(func(c *world.Comment) any { return world.NodeID("IssueComment", c.ID) }),
		"databaseId":     value(func(c *world.Comment) any { return c.ID }), // an Int: refused above 2^31-1
		"fullDatabaseId": value(func(c *world.Comment) any { return c.ID }),
		"author":         value(func(c *world.Comment) any { return actorOrNil(c.Author) }),
		"editor":         value(func(c *world.Comment) any { return actorOrNil(c.Editor) }),
		"body":           value(func(c *world.Comment) any { return c.Body }),
		"createdAt":      value(func(c *world.Comment) any { return gqlTime(c.CreatedAt) }),
		"updatedAt":      value(func(c *world.Comment) any { return gqlTime(c.UpdatedAt) }),
		"lastEditedAt":   value(func(c *world.Comment) any { return gqlTime(c.LastEditedAt) }),
		// GitHub keeps the original as the first edit once a comment is edited.
		"includesCreatedEdit": value(func(c *world.Comment) any { return !c.LastEditedAt.IsZero() }),
		"viewerDidAuthor": func(e *executor, p any, _ map[string]any) (any, error) {
			return p.(*world.Comment).Author == e.login, nil
		},
		"isMinimized": value(func(c *world.Comment) any { return false }),
	})
	on("Label", map[string]resolver{
		"id":          value(func(l label) any { return world.NodeID("Label", world.StableID(l.repo.FullName()+"#"+l.name)) }),
		"name":        value(func(l label) any { return l.name }),
		"color":       value(func(l label) any { return fmt.Sprintf("%06x", world.StableID(l.repo.FullName()+"#"+l.name)%0xffffff) }),
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
