package state

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// runIDPattern is what a run id looks like; a follower whose id does not is shown without it.
var runIDPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*/[1-9][0-9]*/[1-9][0-9]*$`)

// renderFollowers shows, on a pull request's state comment, the issues' runs that follow it:
// "Followed by run `feature/4/1` of #4." The issue is a plain reference (#4) that GitHub
// links; nothing of it is markup read from the pull request.
func renderFollowers(b *strings.Builder, st *model.State) {
	if st == nil {
		return
	}
	for _, f := range st.Followers {
		if f.Issue <= 0 {
			continue
		}
		issue := fmt.Sprintf("#%d", f.Issue)
		if f.Repo != "" { // a multi-PR run of another repository: owner/name#N, which GitHub links too
			ref, ok := model.ParsePRRef(fmt.Sprintf("%s#%d", f.Repo, f.Issue))
			if !ok || ref.Repo == "" {
				continue
			}
			issue = ref.String()
		}
		if runIDPattern.MatchString(f.Run) {
			fmt.Fprintf(b, "Followed by run `%s` of %s: its state is on the issue.\n\n", f.Run, issue)
		} else {
			fmt.Fprintf(b, "Followed by a run of %s: its state is on the issue.\n\n", issue)
		}
	}
}
