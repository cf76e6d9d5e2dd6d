package model

import (
	"strconv"
	"strings"
	"time"
)

// RunPR is the run's pull request, context.pr_number; 0 when it has none.
func RunPR(run *Run) int {
	if run == nil {
		return 0
	}
	return ContextInt(run.Context["pr_number"])
}

// RunPRs are the pull requests associated with the run (context.prs), in order.
func RunPRs(run *Run) []int {
	if run == nil {
		return nil
	}
	list, _ := run.Context["prs"].([]any)
	var out []int
	for _, v := range list {
		if n := ContextInt(v); n > 0 {
			out = append(out, n)
		}
	}
	return out
}

// AddFollower adds f to st.Followers unless it is there; it reports whether it added it.
func AddFollower(st *State, f Follower) bool {
	for _, have := range st.Followers {
		if have == f {
			return false
		}
	}
	st.Followers = append(st.Followers, f)
	return true
}

// NewAssociations returns, for each run of after, the pull requests its context.prs holds
// and before's run of the same id did not: what the caller records on those pull requests'
// states (Followers).
func NewAssociations(before, after *State) map[int][]Follower {
	had := map[string]map[int]bool{}
	if before != nil {
		for _, r := range before.Runs {
			had[r.ID] = map[int]bool{}
			for _, n := range RunPRs(r) {
				had[r.ID][n] = true
			}
		}
	}
	out := map[int][]Follower{}
	for _, r := range after.Runs {
		for _, n := range RunPRs(r) {
			if !had[r.ID][n] {
				out[n] = append(out[n], Follower{Issue: subjectNumber(r.Subject), Run: r.ID})
			}
		}
	}
	return out
}

// ParsePRRef reads a pull request reference as a context or a template gives it: a number,
// "N", "#N" or "owner/name#N". It reports false for anything else.
func ParsePRRef(v any) (PRRef, bool) {
	if n := ContextInt(v); n > 0 {
		return PRRef{Number: n}, true
	}
	s, ok := v.(string)
	if !ok {
		return PRRef{}, false
	}
	s = strings.TrimSpace(s)
	repo, num := "", s
	if i := strings.LastIndexByte(s, '#'); i >= 0 {
		repo, num = s[:i], s[i+1:]
	}
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 || n > 1<<31-1 {
		return PRRef{}, false
	}
	if repo != "" && !ValidRepoName(repo) {
		return PRRef{}, false
	}
	return PRRef{Repo: repo, Number: n}, true
}

// RunPRRefs are the pull requests of run's context.prs, in order, as references; a number
// names a pull request of repo.
func RunPRRefs(run *Run, repo string) []PRRef {
	if run == nil {
		return nil
	}
	list, _ := run.Context["prs"].([]any)
	var out []PRRef
	for _, v := range list {
		if r, ok := ParsePRRef(v); ok {
			if r.Repo == "" {
				r.Repo = repo
			}
			out = append(out, r)
		}
	}
	return out
}

// NewRefAssociations returns, for each run of after, the pull requests its context.prs
// names as "owner/name#N" (multi-PR runs) that before's run of the same id did not: what
// the caller records on those pull requests' states (Followers; for a pull request of
// another repository, with the issue's repository in Follower.Repo).
func NewRefAssociations(before, after *State) map[PRRef][]Follower {
	had := map[string]map[string]bool{}
	if before != nil {
		for _, r := range before.Runs {
			had[r.ID] = map[string]bool{}
			for _, ref := range namedRefs(r) {
				had[r.ID][ref.Key()] = true
			}
		}
	}
	out := map[PRRef][]Follower{}
	for _, r := range after.Runs {
		for _, ref := range namedRefs(r) {
			if !had[r.ID][ref.Key()] {
				k := PRRef{Repo: strings.ToLower(ref.Repo), Number: ref.Number}
				out[k] = append(out[k], Follower{Issue: subjectNumber(r.Subject), Run: r.ID})
			}
		}
	}
	return out
}

// ValidRepoName reports whether s is "owner/name" as GitHub spells them.
func ValidRepoName(s string) bool {
	owner, name, ok := strings.Cut(s, "/")
	if !ok || owner == "" || name == "" || len(s) > 140 || strings.Trim(owner, ".") == "" || strings.Trim(name, ".") == "" {
		return false
	}
	for _, c := range owner + name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// namedRefs are the entries of run's context.prs written "owner/name#N".
func namedRefs(run *Run) []PRRef {
	var out []PRRef
	for _, ref := range RunPRRefs(run, "") {
		if ref.Repo != "" {
			out = append(out, ref)
		}
	}
	return out
}

// Follower is a run of an issue that follows a pull request (State.Followers).
type Follower struct {
	Issue int    `json:"issue"`
	Run   string `json:"run"`
	// Repo is the issue's repository when it is not the pull request's: a multi-PR run of
	// another repository follows it.
	Repo string `json:"repo,omitempty"`
}

// PRRef names a pull request: Repo is "owner/name" ("" for the subject's own repository).
type PRRef struct {
	Repo   string
	Number int
}

// String is "owner/name#N", or "#N" without a repository.
func (r PRRef) String() string {
	return r.Repo + "#" + strconv.Itoa(r.Number)
}

// Key is how Facts.Others keys a pull request of another repository: "owner/name#N" in
// lower case (GitHub compares owner and repository names without regard to case).
func (r PRRef) Key() string { return strings.ToLower(r.String()) }

// Own reports whether r names a pull request of repo (the subject's repository).
func (r PRRef) Own(repo string) bool {
	return r.Repo == "" || strings.EqualFold(r.Repo, repo)
}

// FollowInterval is how often the sweep reads again the pull requests of other
// repositories a waiting multi-PR run depends on.
const FollowInterval = 15 * time.Minute
