package ghapi

import (
	"context"
	"fmt"
	"reflect"

	"github.com/shurcooL/githubv4"
)

// BranchState is what bringing a pull request up to date as its base moves reads of it.
type BranchState struct {
	Number      int
	Open, Draft bool
	// Conflicting: GitHub found that its head and base conflict; no update can pass.
	Conflicting bool
	// Locked: its branch lives in a fork whose author does not allow edits by maintainers:
	// only the fork's owner may push to it.
	Locked bool
	// Queued: it is in its base's merge queue, which tests it on the base itself (a push to
	// it would take it out).
	Queued        bool
	Base, HeadSHA string
}

// branchFields are the fields of one pull request BranchStates reads.
type branchFields struct {
	Number              int
	State               string
	IsDraft             bool
	Mergeable           string
	BaseRefName         string
	HeadRefOid          string
	IsInMergeQueue      bool
	IsCrossRepository   bool
	MaintainerCanModify bool
}

// branchBatch is how many pull requests one query of BranchStates reads.
const branchBatch = 50

// BranchStates reads the state, base, head and mergeability of pull requests prs, 50 a
// query (one alias each); a number that names no pull request is left out.
func (c *Client) BranchStates(ctx context.Context, prs []int) ([]BranchState, error) {
	var out []BranchState
	for start := 0; start < len(prs); start += branchBatch {
		batch := prs[start:min(start+branchBatch, len(prs))]
		vars := map[string]any{"owner": githubv4.String(c.Owner), "name": githubv4.String(c.Repo)}
		var fields []reflect.StructField
		for i, n := range batch {
			p := fmt.Sprintf("p%d", i)
			vars[p] = githubv4.Int(n)
			fields = append(fields, reflect.StructField{Name: fmt.Sprintf("P%d", i), Type: reflect.TypeOf((*branchFields)(nil)),
				Tag: reflect.StructTag(fmt.Sprintf(`graphql:"%s: pullRequest(number: $%s)"`, p, p))})
		}
		q := reflect.New(reflect.StructOf([]reflect.StructField{{Name: "Repository", Type: reflect.StructOf(fields), Tag: repoTag}}))
		if err := c.gql.Query(ctx, q.Interface(), vars); err != nil {
			return out, fmt.Errorf("reading the branches of %d pull requests of %s/%s: %w", len(batch), c.Owner, c.Repo, err)
		}
		r := q.Elem().Field(0)
		for i := range batch {
			f, _ := r.Field(i).Interface().(*branchFields)
			if f == nil {
				continue
			}
			out = append(out, BranchState{Number: f.Number, Open: f.State == "OPEN", Draft: f.IsDraft,
				Conflicting: f.Mergeable == "CONFLICTING", Queued: f.IsInMergeQueue, Locked: f.IsCrossRepository && !f.MaintainerCanModify, Base: f.BaseRefName, HeadSHA: f.HeadRefOid})
		}
	}
	return out, nil
}
