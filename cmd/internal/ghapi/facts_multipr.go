package ghapi

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/shurcooL/githubv4"

	"github.com/org/pipeline-action/engine"
)

// Pull requests of other repositories: those of multi-PR runs.
// They are read in the one query, each repository under its own alias and each of
// its pull requests under an alias inside it:
//
//	o0: repository(owner: $o0owner, name: $o0name) {
//	  pr0: pullRequest(number: $o0pr0) { …the fields a pull request's snapshot reads… }
//	}
//
// The token must be able to read those repositories: GITHUB_TOKEN reaches only the
// repository of its workflow, and GitHub answers a repository it cannot see as one that does
// not exist ("Could not resolve to a Repository"), which fails the query.

// otherRepo is one repository read beside the subject's, with its pull requests.
type otherRepo struct {
	owner, name string
	prs         []int
}

// otherRepos groups others by repository (compared without regard to case), leaving out
// those of own; repositories and numbers sorted, repeats dropped.
func otherRepos(own string, others []engine.PRRef) []otherRepo {
	by := map[string]*otherRepo{}
	for _, r := range others {
		if r.Repo == "" || strings.EqualFold(r.Repo, own) || r.Number <= 0 {
			continue
		}
		owner, name, ok := strings.Cut(r.Repo, "/")
		if !ok {
			continue
		}
		key := strings.ToLower(r.Repo)
		if by[key] == nil {
			by[key] = &otherRepo{owner: owner, name: name}
		}
		by[key].prs = append(by[key].prs, r.Number)
	}
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]otherRepo, 0, len(keys))
	for _, k := range keys {
		o := by[k]
		o.prs = uniquePRs(o.prs)
		out = append(out, *o)
	}
	return out
}

// otherAliases returns the query's fields for repos (O<i>, read as `o<i>: repository(…)`),
// and sets their variables.
func otherAliases(repos []otherRepo, vars map[string]any) []reflect.StructField {
	var out []reflect.StructField
	for i, r := range repos {
		o := "o" + strconv.Itoa(i)
		var fields []reflect.StructField
		for j, n := range r.prs {
			v := o + "pr" + strconv.Itoa(j)
			fields = append(fields, reflect.StructField{Name: "PR" + strconv.Itoa(j), Type: reflect.TypeOf((*prFields)(nil)),
				Tag: reflect.StructTag(fmt.Sprintf(`graphql:"pr%d: pullRequest(number: $%s)"`, j, v))})
			vars[v] = githubv4.Int(n)
		}
		vars[o+"owner"], vars[o+"name"] = githubv4.String(r.owner), githubv4.String(r.name)
		out = append(out, reflect.StructField{Name: "O" + strconv.Itoa(i), Type: reflect.PointerTo(reflect.StructOf(fields)),
			Tag: reflect.StructTag(fmt.Sprintf(`graphql:"%s: repository(owner: $%sowner, name: $%sname)"`, o, o, o))})
	}
	return out
}

// In returns a client of the same token and API for repository repo (owner/name): what
// reads and merges a pull request of another repository.
func (c *Client) In(repo string) (*Client, error) {
	// As GitHub spells them: a name read from a state or a report never reaches a URL path
	// other than the repository's own (no "..", no "/", no "?").
	ref, ok := engine.ParsePRRef(repo + "#1")
	owner, name, _ := strings.Cut(ref.Repo, "/")
	if !ok || ref.Repo == "" {
		return nil, fmt.Errorf("repository %q is not owner/name", repo)
	}
	o := *c
	o.Owner, o.Repo = owner, name
	return &o, nil
}

// readOthers turns the aliases of otherAliases read into q (the query's value) into Facts.Others.
func (c *Client) readOthers(ctx context.Context, q reflect.Value, repos []otherRepo) (map[string]*engine.PullRequest, error) {
	out := map[string]*engine.PullRequest{}
	for i, r := range repos {
		rv := q.FieldByName("O" + strconv.Itoa(i))
		if rv.IsNil() {
			continue // GitHub answered no such repository (or none the token can see)
		}
		oc, err := c.In(r.owner + "/" + r.name)
		if err != nil {
			return nil, err
		}
		got, err := oc.readAliases(ctx, rv.Elem(), r.prs)
		if err != nil {
			return nil, err
		}
		for n, pr := range got {
			out[engine.PRRef{Repo: r.owner + "/" + r.name, Number: n}.Key()] = pr
		}
	}
	return out, nil
}

// performIn performs an effect on a pull request of another repository (e.Repo): only a
// merge of a multi-PR run's pull request goes there; anything else is refused.
func (c *Client) performIn(ctx context.Context, e engine.Effect) engine.Outcome {
	if e.Kind != engine.EffectMerge && e.Kind != engine.EffectUpdateBranch {
		return engine.Outcome{Key: e.Key, Err: fmt.Sprintf("not supported yet: effect %q in another repository (%s)", e.Kind, e.Repo), Permanent: true}
	}
	oc, err := c.In(e.Repo)
	if err != nil {
		return engine.Outcome{Key: e.Key, Err: err.Error(), Permanent: true}
	}
	repo := e.Repo
	e.Repo = ""
	out := oc.Perform(ctx, e)
	if out.Err != "" {
		out.Err = fmt.Sprintf("%s#%d: %s", repo, e.Number, out.Err)
	}
	return out
}

// ReadPRsWith is ReadPRs that also reads others, pull requests of other repositories, in
// the same query: for an issue whose state names pull requests the snapshot did not read.
func (c *Client) ReadPRsWith(ctx context.Context, prs []int, others []engine.PRRef) (map[int]*engine.PullRequest, map[string]*engine.PullRequest, error) {
	prs = uniquePRs(prs)
	repos := otherRepos(c.Owner+"/"+c.Repo, others)
	if len(repos) == 0 {
		got, err := c.ReadPRs(ctx, prs)
		return got, map[string]*engine.PullRequest{}, err
	}
	vars := map[string]any{}
	fields := otherAliases(repos, vars)
	if len(prs) > 0 {
		vars["owner"], vars["name"] = githubv4.String(c.Owner), githubv4.String(c.Repo)
		fields = append(fields, reflect.StructField{Name: "Repository", Type: prAliases(nil, prs, vars),
			Tag: repoTag})
	}
	qv := reflect.New(reflect.StructOf(fields))
	if err := c.gql.Query(ctx, qv.Interface(), vars); err != nil {
		return nil, nil, fmt.Errorf("reading pull requests %v of %s/%s and %v: %w", prs, c.Owner, c.Repo, others, err)
	}
	own := map[int]*engine.PullRequest{}
	if len(prs) > 0 {
		var err error
		if own, err = c.readAliases(ctx, qv.Elem().FieldByName("Repository"), prs); err != nil {
			return nil, nil, err
		}
	}
	out, err := c.readOthers(ctx, qv.Elem(), repos)
	return own, out, err
}
