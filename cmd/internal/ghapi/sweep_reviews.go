package ghapi

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/shurcooL/githubv4"

	"github.com/org/pipeline-action/state"
)

// reviewedBatch is how many pull requests one ReviewedSince query reads: three
// connections of one node each per pull request keep a query at about two points of
// GitHub's GraphQL cost.
const reviewedBatch = 50

// reviewTimes is what ReviewedSince reads of a pull request: its newest review that
// approves or requests changes, and its newest dismissal. A commented review is left out:
// it moves no gate, and would have every sweep look at the pull request again.
type reviewTimes struct {
	Reviews struct {
		Nodes []struct{ SubmittedAt *githubv4.DateTime }
	} `graphql:"reviews(last: 1, states: [APPROVED, CHANGES_REQUESTED])"`
	Dismissals struct {
		Nodes []struct {
			Event struct{ CreatedAt githubv4.DateTime } `graphql:"... on ReviewDismissedEvent"`
		}
	} `graphql:"dismissals: timelineItems(last: 1, itemTypes: [REVIEW_DISMISSED_EVENT])"`
}

// newest is the time of the newest review or dismissal t holds; zero when none.
func (t *reviewTimes) newest() time.Time {
	var at time.Time
	for _, n := range t.Reviews.Nodes {
		if n.SubmittedAt != nil && n.SubmittedAt.After(at) {
			at = n.SubmittedAt.Time
		}
	}
	for _, n := range t.Dismissals.Nodes {
		if n.Event.CreatedAt.After(at) {
			at = n.Event.CreatedAt.Time
		}
	}
	return at
}

// ReviewedSince returns, of the pull requests prs whose state file is on stateBranch,
// those given a review that approves or requests changes, or a dismissal, after the
// commit that last changed that file, each with the time of that review. A pull request
// without a state file there is left out. It reads up to 50 pull requests a query:
//
//	stateRef: ref(qualifiedName: $stateRef) { target { ... on Commit {
//	  f0: history(first: 1, path: $f0) { nodes { committedDate } } … } } }
//	p0: pullRequest(number: $p0) { reviews(last: 1, states: […]) { … } dismissals: timelineItems(…) { … } }
//	…
func (c *Client) ReviewedSince(ctx context.Context, stateBranch string, prs []int) (map[int]time.Time, error) {
	out := map[int]time.Time{}
	for start := 0; start < len(prs); start += reviewedBatch {
		batch := prs[start:min(start+reviewedBatch, len(prs))]
		if err := c.reviewedSince(ctx, stateBranch, batch, out); err != nil {
			return out, err
		}
	}
	return out, nil
}

// reviewedSince is ReviewedSince for one batch of pull requests, adding to out.
func (c *Client) reviewedSince(ctx context.Context, stateBranch string, prs []int, out map[int]time.Time) error {
	vars := map[string]any{
		"owner":    githubv4.String(c.Owner),
		"name":     githubv4.String(c.Repo),
		"stateRef": githubv4.String("refs/heads/" + stateBranch),
	}
	logType := reflect.TypeOf(struct {
		Nodes []struct{ CommittedDate githubv4.DateTime }
	}{})
	var logs, repo []reflect.StructField
	for i, n := range prs {
		f, p := fmt.Sprintf("f%d", i), fmt.Sprintf("p%d", i)
		vars[f] = githubv4.String(state.SubjectFile(true, n))
		vars[p] = githubv4.Int(n)
		logs = append(logs, reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: logType,
			Tag: reflect.StructTag(fmt.Sprintf(`graphql:"%s: history(first: 1, path: $%s)"`, f, f))})
		repo = append(repo, reflect.StructField{Name: fmt.Sprintf("P%d", i), Type: reflect.TypeOf((*reviewTimes)(nil)),
			Tag: reflect.StructTag(fmt.Sprintf(`graphql:"%s: pullRequest(number: $%s)"`, p, p))})
	}
	target := reflect.StructOf([]reflect.StructField{{Name: "Commit", Type: reflect.StructOf(logs), Tag: `graphql:"... on Commit"`}})
	ref := reflect.StructOf([]reflect.StructField{{Name: "Target", Type: reflect.PointerTo(target)}})
	repo = append(repo, reflect.StructField{Name: "StateRef", Type: reflect.PointerTo(ref), Tag: `graphql:"stateRef: ref(qualifiedName: $stateRef)"`})
	q := reflect.New(reflect.StructOf([]reflect.StructField{{Name: "Repository", Type: reflect.StructOf(repo), Tag: repoTag}}))
	if err := c.gql.Query(ctx, q.Interface(), vars); err != nil {
		return fmt.Errorf("reading the reviews of %d waiting pull requests of %s/%s: %w", len(prs), c.Owner, c.Repo, err)
	}
	r := q.Elem().Field(0)
	sr := r.FieldByName("StateRef")
	if sr.IsNil() || sr.Elem().Field(0).IsNil() {
		return nil // no state branch: no state file was written
	}
	commit := sr.Elem().Field(0).Elem().Field(0)
	for i, n := range prs {
		log := commit.Field(i).Field(0)
		t, _ := r.Field(i).Interface().(*reviewTimes)
		if log.Len() == 0 || t == nil {
			continue
		}
		written := log.Index(0).Field(0).Interface().(githubv4.DateTime).Time
		if at := t.newest(); at.After(written) {
			out[n] = at
		}
	}
	return nil
}
