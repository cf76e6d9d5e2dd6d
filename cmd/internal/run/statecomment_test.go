package run

import (
	"bytes"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/org/pipeline-action/state"
)

// deliverTogether runs the events at once, each invocation with its own token; the fake
// holds every write until all of them have read, so that they race. It returns each
// invocation's exit code and job log.
func (h *harness) deliverTogether(evs []ghfake.Event) (codes []int, logs []string) {
	h.T.Helper()
	ids := make([]int, len(evs))
	for i := range evs {
		h.RunID++
		ids[i] = h.RunID
	}
	codes, logs, _ = atOnce(h.T, h.Fake, len(evs), func(i int, token string) map[string]string {
		return runtest.Job(h.T, h.Fake, h.Dir, ids[i], evs[i], token)
	})
	return codes, logs
}

// atOnce runs n invocations at once, job giving the environment of the i-th with its own
// token; the fake holds every write until all of them have read, which it requires. It
// returns each invocation's exit code and job log, and how many read.
func atOnce(t testing.TB, f *ghfake.Server, n int, job func(i int, token string) map[string]string) (codes []int, logs []string, read int) {
	t.Helper()
	tokens := make([]string, n)
	for i := range tokens {
		tokens[i] = f.NewBotToken()
	}
	barrier := f.ArmBarrier(tokens, 20*time.Second)
	codes, logs = make([]int, n), make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		env := job(i, tokens[i])
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			defer barrier.Leave(tokens[i])
			var buf bytes.Buffer
			codes[i] = testMain(nil, nil, &buf, &buf, func(k string) string { return env[k] })
			logs[i] = buf.String()
		}(i)
	}
	wg.Wait()
	seen := barrier.Disarm()
	require.True(t, seen.Released && !seen.TimedOut, "every invocation read before any wrote: %+v", seen)
	return codes, logs, seen.Read
}

// labels returns n labeled events on pr, one label each.
func (h *harness) labels(pr, n int) []ghfake.Event {
	var evs []ghfake.Event
	for i := 1; i <= n; i++ {
		evs = append(evs, h.Fake.Label("acme/widgets", pr, fmt.Sprintf("x%d", i), true))
	}
	return evs
}

// botComments returns the comments the action's identity wrote on pr, and those of them
// that hold a trusted state.
func (h *harness) botComments(pr int) (all, trusted []ghfake.CommentView) {
	for _, c := range h.Fake.Comments("acme/widgets", pr) {
		if c.Author != ghfake.BotLogin {
			continue
		}
		all = append(all, c)
		if _, why, err := state.Check(trustedComment(c)); err == nil && why == "" {
			trusted = append(trusted, c)
		}
	}
	return all, trusted
}

// stateComments are the comments on pr that hold its state or will: the trusted state
// comments, and the action's placeholders nobody else edited, whose state the next edit
// binds in.
func (h *harness) stateComments(pr int) []ghfake.CommentView {
	var out []ghfake.CommentView
	all, trusted := h.botComments(pr)
	out = append(out, trusted...)
	for _, c := range all {
		if state.IsPlaceholder(c.Body) && !state.HasMarker(c.Body) && !trustedComment(c).EditedByOther() {
			out = append(out, c)
		}
	}
	return out
}

func commentIDs(cs []ghfake.CommentView) []int64 {
	var ids []int64
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return ids
}

// requireOk fails the test when an invocation failed.
func requireOk(t *testing.T, codes []int, logs []string) {
	t.Helper()
	for i, c := range codes {
		require.Equal(t, 0, c, "invocation %d:\n%s", i, logs[i])
	}
}

// The state comment was edited by someone else, so it is ignored while the branch file
// is there; four events at once post one state comment between them, not one each.
func TestStateCommentIgnoredThenRace(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	log := h.OpenPR7()
	code, log, _, _ := h.Deliver(h.Fake.Label("acme/widgets", 7, "automerge", true)) // binds the state in
	require.Equal(t, 0, code, log)
	_, trusted := h.botComments(7)
	require.Len(t, trusted, 1)
	old := trusted[0].ID
	h.Fake.EditComment("acme/widgets", old, "alice", trusted[0].Body+"\nnudged")
	// The first comment posted meets a secondary rate limit and is sent again a second
	// later: the other invocations have read the world again meanwhile, and found no
	// state comment.
	h.Fake.Inject("issues/create-comment", ghfake.Fault{Status: 403, Message: "You have exceeded a secondary rate limit", RetryAfter: 1})

	codes, logs := h.deliverTogether(h.labels(7, 4))
	requireOk(t, codes, logs)
	all, _ := h.botComments(7)
	posted := h.stateComments(7)
	require.Len(t, commentIDs(posted), 1, "one state comment")
	assert.NotEqual(t, old, posted[0].ID, "the edited comment is left as it is")
	assert.Len(t, commentIDs(all), 2, "the edited comment and one new state comment, no more: %v", commentIDs(all))
	assert.Contains(t, posted[0].Body, "a state comment (id "+strconv.FormatInt(old, 10)+") was ignored")
}

// Posting the state comment failed: the file is on the branch, the comment is not.
// Four events at once post one between them.
func TestStateCommentCreateFailedThenRace(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	h.Fake.FailNext("issues/create-comment", 502, "Bad Gateway")
	code, log, _, _ := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	require.NotEqual(t, 0, code, log)
	assert.Contains(t, log, "502")
	all, _ := h.botComments(7)
	require.Empty(t, all)
	require.Contains(t, h.Fake.BranchFiles("acme/widgets", "pipeline-action/state"), "pr-7.json")
	assert.Contains(t, h.Fake.BranchLog("acme/widgets", "pipeline-action/state")[0].Message, "pr-7: the state comment was not posted",
		"the claim ended at once: GitHub refused the comment")

	codes, logs := h.deliverTogether(h.labels(7, 4))
	requireOk(t, codes, logs)
	all, _ = h.botComments(7)
	require.Len(t, commentIDs(h.stateComments(7)), 1, "one state comment")
	assert.Len(t, commentIDs(all), 1, "and no other: %v", commentIDs(all))
}

// The state comment is posted, and the edit that binds its marker in (the next event's,
// which has something new to show) failed: the next events adopt that comment rather
// than post another, whether one comes or several.
func TestStateCommentBindFailedIsAdopted(t *testing.T) {
	for _, n := range []int{1, 3} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			h := newHarness(t, exampleYAML(t))
			code, log, _, _ := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
			require.Equal(t, 0, code, log)
			h.Fake.FailNext("issues/update-comment", 502, "Bad Gateway")
			code, log, _, _ = h.Deliver(h.Fake.Label("acme/widgets", 7, "automerge", true))
			require.NotEqual(t, 0, code, log)
			all, trusted := h.botComments(7)
			require.Len(t, all, 1, "the placeholder")
			require.Empty(t, trusted)
			placeholder := all[0].ID

			codes, logs := h.deliverTogether(h.labels(7, n))
			requireOk(t, codes, logs)
			all, trusted = h.botComments(7)
			require.Len(t, commentIDs(trusted), 1, "one state comment holds the state")
			assert.Len(t, commentIDs(all), 1, "and no other: %v", commentIDs(all))
			assert.Equal(t, placeholder, trusted[0].ID, "the placeholder was adopted")
		})
	}
}
