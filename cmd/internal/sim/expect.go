package sim

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/state"
)

// check compares the fake's world with e and prints each expectation; it returns
// how many failed and counts them all in s.checked. Only the keys e gives are checked.
func (s *simulation) check(e *expectation) (failed int) {
	report := func(ok bool, what, want, found string) {
		s.checked++
		if ok {
			fmt.Fprintf(s.out, "   ✓ %s: %s\n", what, want)
			return
		}
		failed++
		fmt.Fprintf(s.out, "   ✗ %s: want %s, found %s\n", what, want, found)
	}
	for _, n := range sortedInts(e.PRs) {
		x := e.PRs[n]
		var pr ghfake.PRView
		if !s.try(func() { pr = s.fake.PR(s.sc.Repo, n) }) {
			report(false, fmt.Sprintf("#%d", n), "a pull request", "none")
			continue
		}
		s.checkSubject(report, n, x, pr.Merged, pr.State == "closed", pr.Labels)
		if x.MergeCommit != nil {
			report(pr.MergeCommit == *x.MergeCommit, fmt.Sprintf("#%d merge commit", n), fmt.Sprintf("%q", *x.MergeCommit), fmt.Sprintf("%q", pr.MergeCommit))
		}
		s.checkStatuses(report, n, x)
	}
	for _, n := range sortedInts(e.Issues) {
		x := e.Issues[n]
		var is ghfake.IssueView
		if !s.try(func() { is = s.fake.IssueView(s.sc.Repo, n) }) {
			report(false, fmt.Sprintf("#%d", n), "an issue", "none")
			continue
		}
		s.checkSubject(report, n, x, false, is.State == "closed", is.Labels)
	}
	runs := s.runs()
	for _, want := range e.Runs {
		report(matchRun(runs, want, s.sc.Repo), "run", describeRunExpect(want), describeRuns(runs))
	}
	if e.Branches != nil {
		want := append([]string(nil), *e.Branches...)
		sort.Strings(want)
		got := s.fake.Branches(s.sc.Repo)
		report(strings.Join(want, ",") == strings.Join(got, ","), "branches of "+s.sc.Repo, fmt.Sprint(want), fmt.Sprint(got))
	}
	if e.StateBranch != nil {
		s.checkStateBranch(report, e.StateBranch)
	}
	s.checkReminders(report, e.Reminders)
	for _, d := range e.Dispatches {
		s.checkDispatchBound(report, d)
	}
	if e.Reruns != nil {
		var got []string
		for _, r := range s.fake.Reruns() {
			got = append(got, r.Workflow)
		}
		report(slices.Equal(got, *e.Reruns), "workflows re-run", fmt.Sprint(*e.Reruns), fmt.Sprint(got))
	}
	s.checkRequests(report, e.Requests)
	s.checkRepos(report, e.Repos)
	s.checkNowhere(report, e.Nowhere)
	checkJobLines(report, "job errors", s.jobErrors, e.JobErrors)
	checkJobLines(report, "job warnings", s.jobWarnings, e.JobWarnings)
	s.checkCallBounds(report, e)
	s.checkExplain(report, e)
	return failed
}

// checkStateBranch checks the branch that holds the state: whether it exists, and that the
// files named are at its head.
func (s *simulation) checkStateBranch(report func(bool, string, string, string), x *stateBranchExpect) {
	name := s.stateBranch()
	files := s.fake.BranchFiles(s.sc.Repo, name)
	exists := files != nil
	if x.Exists != nil {
		report(exists == *x.Exists, "state branch "+name+" exists", fmt.Sprint(*x.Exists), fmt.Sprint(exists))
	}
	if x.Commits != nil {
		n := len(s.fake.BranchLog(s.sc.Repo, name))
		report(n == *x.Commits, "commits on state branch "+name, fmt.Sprint(*x.Commits), fmt.Sprint(n))
	}
	for _, f := range x.Files {
		found := "it is not there"
		if !exists {
			found = "there is no such branch"
		}
		_, ok := files[f]
		report(ok, "state branch "+name+" holds", f, found)
	}
	if x.MaxFileBytes != nil {
		checkFileBytes(report, name, files, s.fake.BranchFiles(s.sc.Repo, s.sc.DefaultBranch), x.MaxFileBytes)
	}
}

func (s *simulation) checkSubject(report func(bool, string, string, string), n int, x subjectExpect, merged, closed bool, labels []string) {
	who := fmt.Sprintf("#%d", n)
	if x.Merged != nil {
		report(merged == *x.Merged, who+" merged", fmt.Sprint(*x.Merged), fmt.Sprint(merged))
	}
	if x.Closed != nil {
		report(closed == *x.Closed, who+" closed", fmt.Sprint(*x.Closed), fmt.Sprint(closed))
	}
	if x.UpToDate != nil {
		up := s.fake.UpToDate(s.sc.Repo, n)
		report(up == *x.UpToDate, who+" up to date with its base", fmt.Sprint(*x.UpToDate), fmt.Sprint(up))
	}
	if x.Labels != nil {
		want := append([]string(nil), *x.Labels...)
		sort.Strings(want)
		got := append([]string(nil), labels...)
		sort.Strings(got)
		report(strings.Join(want, ",") == strings.Join(got, ","), who+" labels", fmt.Sprint(want), fmt.Sprint(got))
	}
	if x.Comments != nil {
		count := 0
		for _, c := range s.fake.Comments(s.sc.Repo, n) {
			if c.Author == ghfake.BotLogin {
				count++
			}
		}
		report(count == *x.Comments, who+" comments by the action", fmt.Sprint(*x.Comments), fmt.Sprint(count))
	}
	s.checkStateCommentBound(report, who, n, x.CommentsAtMost)
	for _, want := range x.CommentsContain {
		found := false
		for _, c := range s.fake.Comments(s.sc.Repo, n) {
			found = found || (c.Author == ghfake.BotLogin && strings.Contains(c.Body, want))
		}
		report(found, who+" a comment by the action contains", fmt.Sprintf("%q", want), "none does")
	}
	if len(x.CommentContains) > 0 {
		body := ""
		if c := s.stateComment(n); c != nil {
			body = c.Body
		}
		for _, want := range x.CommentContains {
			report(strings.Contains(body, want), who+" state comment contains", fmt.Sprintf("%q", want), "it does not")
		}
	}
}

// try runs f and reports whether it returned without panicking (the fake panics on
// subjects that do not exist).
func (s *simulation) try(f func()) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	f()
	return true
}

// stateComment is the action's state comment on n, or nil: the comment the action
// trusts (the oldest that passes state.Check).
func (s *simulation) stateComment(n int) *ghfake.CommentView {
	var out *ghfake.CommentView
	s.try(func() {
		for _, c := range s.fake.Comments(s.sc.Repo, n) {
			if !state.HasMarker(c.Body) {
				continue
			}
			if _, why, err := state.CheckKeyed(trustedComment(c), s.stateKeys()); err == nil && why == "" {
				c := c
				out = &c
				return
			}
		}
		out = s.placeholder(n)
	})
	return out
}

// placeholder is, when subject n has no trusted state comment, the oldest placeholder of
// one the action posted and nobody else edited: what it shows until the next event binds
// its state into it; nil for none.
func (s *simulation) placeholder(n int) *ghfake.CommentView {
	for _, c := range s.fake.Comments(s.sc.Repo, n) {
		if c.Author == ghfake.BotLogin && state.IsPlaceholder(c.Body) && !state.HasMarker(c.Body) && !trustedComment(c).EditedByOther() {
			c := c
			return &c
		}
	}
	return nil
}

// subjects are the numbers of every PR and issue the scenario opened, in order.
func (s *simulation) subjects() []int {
	var out []int
	seen := map[int]bool{}
	for step := 0; step <= len(s.sc.Steps); step++ { // 0: what the action's events caused
		for _, d := range s.sent[step] {
			if n := d.subject; n > 0 && !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// payloadSubject is the number of the PR or issue an event's payload is about; 0 for none.
// It is read once, as the delivery is made: subjects runs every step, over every delivery.
func payloadSubject(payload []byte) int {
	var p struct {
		Number int `json:"number"`
		Issue  *struct {
			Number int `json:"number"`
		} `json:"issue"`
		Inputs struct {
			Number string `json:"number"`
		} `json:"inputs"` // a workflow_dispatch of the pipelines workflow
	}
	if json.Unmarshal(payload, &p) != nil {
		return 0
	}
	if n, err := strconv.Atoi(p.Inputs.Number); err == nil && p.Number == 0 && p.Issue == nil {
		return n
	}
	if p.Number == 0 && p.Issue != nil {
		return p.Issue.Number
	}
	return p.Number
}

// runs decodes every run from the subjects' state: the file on the state branch, or the
// state comment where there is none (the branch is refused, or was deleted); and the
// finished runs archived on the branch (they left the live state).
func (s *simulation) runs() []*model.Run {
	var out []*model.Run
	files := s.fake.BranchFiles(s.sc.Repo, s.stateBranch())
	for _, n := range s.subjects() {
		name := state.SubjectFile(true, n)
		if _, ok := files[name]; !ok {
			name = state.SubjectFile(false, n) // an issue's
		}
		subject := s.sc.Repo + "#" + strconv.Itoa(n)
		if text, ok := files[name]; ok && s.fileTrusted(name) && state.VerifyFile(text, name, subject, s.stateKeys()) == "" {
			if st, err := state.DecodeFile(text, subject); err == nil {
				out = append(out, st.Runs...)
				continue
			}
		}
		c := s.stateComment(n)
		if c == nil {
			continue
		}
		st, ok, err := state.Decode(c.Body)
		if err != nil || !ok {
			continue
		}
		out = append(out, st.Runs...)
	}
	return append(out, s.archived()...)
}

// fileTrusted reports whether the commit that last changed path on the state branch was
// the action's, made through GitHub's API, as the run trusts it (state.TrustFile).
func (s *simulation) fileTrusted(path string) bool {
	log := s.fake.BranchLog(s.sc.Repo, s.stateBranch())
	for i, c := range log {
		before, had := "", false
		if i+1 < len(log) {
			before, had = log[i+1].Files[path]
		}
		if now, ok := c.Files[path]; ok != had || now != before {
			return c.SignedByGitHub && c.Author == ghfake.BotLogin
		}
	}
	return false
}

// archived are the runs archived on the state branch, by path.
func (s *simulation) archived() []*model.Run {
	var out []*model.Run
	files := s.fake.BranchFiles(s.sc.Repo, s.stateBranch())
	paths := make([]string, 0, len(files))
	for p := range files {
		if strings.HasPrefix(p, "archive/") {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		var r model.Run
		if json.Unmarshal([]byte(files[p]), &r) == nil {
			out = append(out, &r)
		}
	}
	return out
}

func matchRun(runs []*model.Run, want runExpect, repo string) bool {
	subject := want.Subject
	if strings.HasPrefix(subject, "#") {
		subject = repo + subject
	}
	for _, r := range runs {
		if (want.Pipeline == "" || r.Pipeline == want.Pipeline) &&
			(subject == "" || r.Subject == subject) &&
			(want.Status == "" || string(r.Status) == want.Status) &&
			(want.Stage == "" || r.Stage == want.Stage) && stagesMatch(r, want.Stages) &&
			(want.Parent == "" || r.Parent == want.Parent) {
			return true
		}
	}
	return false
}

func describeRunExpect(w runExpect) string {
	var parts []string
	for _, kv := range [][2]string{{"pipeline", w.Pipeline}, {"subject", w.Subject}, {"status", w.Status}, {"stage", w.Stage}, {"parent", w.Parent}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+"="+kv[1])
		}
	}
	parts = append(parts, describeStages(w.Stages)...)
	return "{" + strings.Join(parts, " ") + "}"
}

func describeRuns(runs []*model.Run) string {
	if len(runs) == 0 {
		return "no runs"
	}
	var parts []string
	for _, r := range runs {
		parts = append(parts, fmt.Sprintf("{pipeline=%s subject=%s status=%s stage=%s%s}", r.Pipeline, r.Subject, r.Status, r.Stage, runStages(r)))
	}
	return strings.Join(parts, ", ")
}

func sortedInts[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}
