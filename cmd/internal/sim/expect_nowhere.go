package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/org/pipeline-action/state"
)

// The `nowhere` expectation: strings (a secret a webhook sent, say) that must appear in
// nothing the action kept or showed, at any moment of the scenario — not only in what is
// there at the end, since GitHub keeps every earlier body of a comment in its edit history
// and had notified a deleted comment's text, and the state branch keeps every commit.

// nowhereText is one text the action kept or showed, and where it is.
type nowhereText struct{ where, text string }

// checkNowhere checks that no text of keptTexts contains one of xs, ignoring case (as a
// log mask or an endpoint that changes case would not help), nor its JSON-escaped form.
func (s *simulation) checkNowhere(report func(bool, string, string, string), xs []string) {
	if len(xs) == 0 {
		return
	}
	texts := s.keptTexts()
	for _, x := range xs {
		needles := []string{strings.ToLower(x)}
		if b, err := json.Marshal(x); err == nil {
			needles = append(needles, strings.ToLower(strings.Trim(string(b), `"`)))
		}
		var found []string
		for _, t := range texts {
			lower := strings.ToLower(t.text)
			for _, n := range needles {
				if n != "" && strings.Contains(lower, n) {
					found = append(found, t.where)
					break
				}
			}
		}
		report(len(found) == 0, fmt.Sprintf("%q appears nowhere the action kept or showed", x),
			fmt.Sprintf("in none of %d texts", len(texts)), "in "+strings.Join(found, ", "))
	}
}

// keptTexts gathers what the action kept or showed: every version of every comment (the
// state they carry in a marker decoded), issues' titles, bodies and labels, every file
// and message of every commit of the state branch, the agents' dispatches, and every
// invocation's step outputs and job summary.
func (s *simulation) keptTexts() []nowhereText {
	var out []nowhereText
	for _, repo := range append([]string{s.sc.Repo}, s.sc.Repos...) {
		for _, c := range s.fake.AllComments(repo) {
			for i, body := range append(append([]string(nil), c.Edits...), c.Body) {
				where := fmt.Sprintf("comment %d (version %d) on %s", c.ID, i+1, repo)
				out = append(out, nowhereText{where, body})
				if st, found, err := state.Decode(body); found && err == nil {
					out = append(out, nowhereText{"the state in the marker of " + where, noEscapeJSON(st)})
				}
			}
		}
		for _, is := range s.fake.Issues(repo) {
			out = append(out, nowhereText{fmt.Sprintf("#%d on %s", is.Number, repo),
				is.Title + "\n" + is.Body + "\n" + strings.Join(is.Labels, "\n")})
		}
	}
	branch := s.stateBranch()
	for _, c := range s.fake.BranchLog(s.sc.Repo, branch) {
		out = append(out, nowhereText{fmt.Sprintf("commit %.7s of %s", c.SHA, branch), c.Message})
		for _, p := range slices.Sorted(maps.Keys(c.Files)) {
			out = append(out, nowhereText{fmt.Sprintf("%s at commit %.7s of %s", p, c.SHA, branch), c.Files[p]})
		}
	}
	for i, d := range s.fake.Dispatches() {
		out = append(out, nowhereText{fmt.Sprintf("dispatch %d", i+1), noEscapeJSON(d)})
	}
	for _, pattern := range []string{"output-*", "summary-*"} {
		paths, _ := filepath.Glob(filepath.Join(s.tmp, pattern))
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				out = append(out, nowhereText{filepath.Base(p), string(b)})
			}
		}
	}
	return out
}

// noEscapeJSON is v as JSON with its strings as written (no \u003c for "<").
func noEscapeJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%v", v)
	}
	return b.String()
}
