package world

// PRsOfCommit are the pull requests associated with commit sha as seen from repository r,
// by number: r's pull requests whose commits include sha, leaving out a fork's pull
// request while the commit is only in the fork.
func PRsOfCommit(r *Repo, sha string) []*Issue {
	var out []*Issue
	inRepo := Reachable(r)[sha]
	for _, pr := range PRsOf(r) {
		if HasCommit(pr, sha) && (!pr.CrossRepo() || inRepo) {
			out = append(out, pr)
		}
	}
	return out
}

// PRsOf are r's pull requests by number.
func PRsOf(r *Repo) []*Issue {
	var out []*Issue
	for n := 1; n <= MaxNumber(r); n++ {
		if pr := r.Issues[n]; pr != nil && pr.IsPR {
			out = append(out, pr)
		}
	}
	return out
}

func HasCommit(pr *Issue, sha string) bool {
	for _, c := range pr.Commits {
		if c == sha {
			return true
		}
	}
	return false
}

// Reachable are the commits that some branch of r reaches through parents: the objects of
// r. (A fork shares its parent's object store in the fake; reachability tells them apart.)
func Reachable(r *Repo) map[string]bool {
	seen := map[string]bool{}
	var stack []string
	for _, b := range r.Branches {
		stack = append(stack, b.Head)
	}
	for len(stack) > 0 {
		sha := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if sha == "" || seen[sha] {
			continue
		}
		seen[sha] = true
		if c := r.Commits[sha]; c != nil {
			stack = append(stack, c.Parents...)
		}
	}
	return seen
}

func MaxNumber(r *Repo) int {
	m := 0
	for n := range r.Issues {
		m = max(m, n)
	}
	return m
}
