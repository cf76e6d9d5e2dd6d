package state

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// longRun is a run whose history alone renders to about n * size characters.
func longRun(n, size int) *model.Run {
	r := retryingRun()
	r.History = nil
	for i := 0; i < n; i++ {
		r.History = append(r.History, model.Transition{
			At: at(i), Actor: "dev", From: "ready", To: "merge",
			Why: fmt.Sprintf("entry %03d %s", i, strings.Repeat("x", size)),
		})
	}
	return r
}

func TestBody(t *testing.T) {
	tests := []struct {
		name        string
		st          *model.State
		wantHistory string // in the rendered part; "" = no history section
		wantNote    string
	}{
		{name: "fits", st: state(waitingRun()), wantHistory: "History (1)</summary>"},
		{name: "oldest history dropped", st: state(longRun(50, 1000), longRun(30, 1000)),
			wantHistory: "History (50, newest ", wantNote: "entry 049"},
		{name: "history dropped", st: state(withLongMessage(longRun(50, 5000), 60000)),
			wantNote: "History (50) left out"},
		{name: "summary only", st: state(withLongMessage(longRun(5, 100), 40000), withLongMessage(longRun(5, 100), 40000)),
			wantNote: "The full status is too long for a comment."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, err := Body(testConfig(), tt.st)
			require.NoError(t, err)
			assert.LessOrEqual(t, len(body), MaxCommentLen)
			if tt.wantHistory != "" {
				assert.Contains(t, body, tt.wantHistory)
			} else {
				assert.NotContains(t, body, "<summary>History")
			}
			assert.Contains(t, body, tt.wantNote)
			assert.NotContains(t, body, "entry 000 ", "the oldest entry goes first")

			got, found, err := Decode(body)
			require.NoError(t, err)
			require.True(t, found)
			assert.Equal(t, tt.st, got, "the state keeps its whole history")
		})
	}
}

func TestBodyShape(t *testing.T) {
	st := state(waitingRun())
	body, err := Body(testConfig(), st)
	require.NoError(t, err)
	payload, err := encodePayload(st)
	require.NoError(t, err)
	before := Render(testConfig(), st) + "\n"
	assert.Equal(t, before+sealMarker(before, 0, payload), body)

	bound, err := Bind(body, 5_000_000_123)
	require.NoError(t, err)
	assert.Equal(t, before+sealMarker(before, 5_000_000_123, payload), bound)
	again, err := Bind(bound, 5_000_000_123)
	require.NoError(t, err)
	assert.Equal(t, bound, again, "binding is idempotent")
	got, _, err := Decode(bound)
	require.NoError(t, err)
	assert.Equal(t, st, got)
}

func TestBindRefuses(t *testing.T) {
	body, err := Body(testConfig(), state(waitingRun()))
	require.NoError(t, err)
	for name, b := range map[string]string{
		"no marker":         "hello",
		"text after marker": body + "\nP.S.",
		"malformed marker":  "x\n" + markerPrefix + "v2 0 -->",
	} {
		_, err := Bind(b, 7)
		assert.Error(t, err, name)
	}
}

func TestBodyIgnoredNote(t *testing.T) {
	st := state(waitingRun())
	for i := 0; i < 7; i++ {
		st.Ignored = append(st.Ignored, model.IgnoredComment{ID: int64(5_000_000_000 + i), Why: "edited by <b>mallory</b>"})
	}
	body, err := Body(testConfig(), st)
	require.NoError(t, err)
	human := Human(body)
	assert.Contains(t, human, "a state comment (id 5000000000) was ignored: `edited by <b>mallory</b>`", "shown inert, in a code span")
	assert.Contains(t, human, "id 5000000004")
	assert.NotContains(t, human, "id 5000000005", "at most five listed")
	assert.Contains(t, human, "- and 2 more")
	assert.True(t, strings.HasPrefix(human, Render(testConfig(), st)), "the note follows the status")
}

// withLongMessage makes the rendered part of r long where history trimming cannot help.
func withLongMessage(r *model.Run, n int) *model.Run {
	// Repeated text compresses, so the marker stays small while the rendering grows.
	r.Stages["merge"].Message = strings.Repeat("refused ", n/8)
	return r
}

func TestBodyTooLarge(t *testing.T) {
	// Text that does not compress: the marker alone exceeds the limit.
	var b strings.Builder
	for i := 0; b.Len() < 2*MaxCommentLen; i++ {
		fmt.Fprintf(&b, "%x", uint64(i)*0x9E3779B97F4A7C15)
	}
	r := retryingRun()
	r.Message = b.String()
	_, err := Body(testConfig(), state(r))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a comment holds at most 65536")
}

// The marker says which state-branch commit its state matches; the binding covers it,
// so a changed commit breaks the trust like a changed status does.
func TestMarkerCommit(t *testing.T) {
	st := state(waitingRun())
	body, err := Body(testConfig(), st)
	require.NoError(t, err)
	assert.Empty(t, MarkerCommit(body))
	commit := strings.Repeat("ab", 20)
	with, err := WithCommit(body, commit)
	require.NoError(t, err)
	assert.Equal(t, commit, MarkerCommit(with))
	bound, err := Bind(with, 5_000_000_123)
	require.NoError(t, err)
	assert.Equal(t, commit, MarkerCommit(bound), "binding keeps the commit")
	c := Comment{ID: 5_000_000_123, Author: viewer, ViewerDidAuthor: true, Edited: true, Editor: viewer, Body: bound}
	got, why, err := Check(c)
	require.NoError(t, err)
	require.Empty(t, why)
	assert.Equal(t, st, got)

	c.Body = strings.Replace(bound, commit, strings.Repeat("cd", 20), 1)
	_, why, err = Check(c)
	require.NoError(t, err)
	assert.Equal(t, "its text does not match its state marker (changed after this action wrote it)", why)

	again, err := WithCommit(bound, "")
	require.NoError(t, err)
	assert.Empty(t, MarkerCommit(again))
	_, err = WithCommit(body, "xyz")
	assert.Error(t, err)
	_, err = WithCommit("no marker", commit)
	assert.Error(t, err)
}

// A comment written before the state branch (marker v2, no commit) is still trusted.
func TestMarkerV2StillRead(t *testing.T) {
	st := state(waitingRun())
	payload, err := encodePayload(st)
	require.NoError(t, err)
	before := "### pipeline-action\n\nolder status\n"
	id := int64(5_000_000_123)
	v2 := markerPrefix + "v2 " + strconv.FormatInt(id, 10) + " " + binding("v2", before, id, "", payload) + " " + payload + markerSuffix
	c := Comment{ID: id, Author: viewer, ViewerDidAuthor: true, Edited: true, Editor: viewer, Body: before + v2}
	got, why, err := Check(c)
	require.NoError(t, err)
	require.Empty(t, why)
	assert.Equal(t, st, got)
	assert.Empty(t, MarkerCommit(c.Body))
	// Rebound, it is written as v3.
	re, err := Bind(c.Body, id)
	require.NoError(t, err)
	assert.Contains(t, re, markerPrefix+"v3 5000000123 - ")
}
