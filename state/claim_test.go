package state

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// claimOf is the claim the subject's file on m holds.
func claimOf(t *testing.T, m *memBranch) *Claim {
	t.Helper()
	_, claim, err := decodeFile(m.files["pr-7.json"], "acme/widgets#7")
	require.NoError(t, err)
	return claim
}

// creates counts the comments w was asked to post.
func creates(w *fakeWriter) int {
	n := 0
	for _, c := range w.calls {
		if strings.HasPrefix(c, "create ") {
			n++
		}
	}
	return n
}

// placeholderOf is comment id as the facts query reads it after it was posted and never
// edited.
func placeholderOf(w *fakeWriter, id int64) Comment {
	return Comment{ID: id, Author: viewer, ViewerDidAuthor: true, Body: w.bodies[id]}
}

// saved loads the subject as one invocation would, over comments, and saves st at now.
func saved(t *testing.T, m *memBranch, w *fakeWriter, comments []Comment, now time.Time, st *model.State) (*Dual, error) {
	t.Helper()
	var logs []string
	d := subjectStores(m, w, comments, &logs)
	d.SetClock(func() time.Time { return now }, now.Add(5*time.Minute))
	old, v, err := d.Load(t.Context(), 7)
	require.NoError(t, err)
	_, err = d.Save(t.Context(), 7, change(old, st), v)
	return d, err
}

// The file is there and no state comment: the save that posts it claims it first, in
// its commit; an invocation that read the same head conflicts, and after reading again
// leaves the comment to the claim in flight.
func TestClaimSerialisesPosting(t *testing.T) {
	ctx := t.Context()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m, w := newMemBranch(), &fakeWriter{nextID: 1}
	_, err := NewBranchStore(m, m.read("pr-7.json"), "pr-7.json", "acme/widgets#7", viewer, nil).
		Save(ctx, 7, change(nil, withSeq(2)), Version{})
	require.NoError(t, err)
	require.Nil(t, claimOf(t, m))

	var logs []string
	a, b := subjectStores(m, w, nil, &logs), subjectStores(m, w, nil, &logs)
	for _, d := range []*Dual{a, b} {
		d.SetClock(func() time.Time { return now }, now.Add(5*time.Minute))
	}
	sa, va, err := a.Load(ctx, 7)
	require.NoError(t, err)
	sb, vb, err := b.Load(ctx, 7)
	require.NoError(t, err)
	_, err = b.Save(ctx, 7, change(sb, withSeq(3)), vb)
	require.NoError(t, err)
	_, err = a.Save(ctx, 7, change(sa, withSeq(3)), va)
	require.ErrorIs(t, err, ErrConflict)
	claim := claimOf(t, m)
	require.NotNil(t, claim)
	assert.Equal(t, now.Add(5*time.Minute+model.IntentGrace), claim.Until, "the claimer's deadline and the grace")
	assert.True(t, HasMarker(w.bodies[1]), "the placeholder posted, then its state marker bound")

	_, err = saved(t, m, w, nil, now.Add(time.Second), withSeq(4))
	require.NoError(t, err)
	assert.Equal(t, 1, creates(w), "one state comment")
	assert.Equal(t, claim, claimOf(t, m), "the claim stays while the comment is unknown")

	// Once the state comment is read, the claim leaves the file with its next commit.
	_, err = saved(t, m, w, commentsOf(w), now.Add(2*time.Second), withSeq(5))
	require.NoError(t, err)
	assert.Nil(t, claimOf(t, m))
	assert.Equal(t, 1, creates(w))
}

// The placeholder was posted, but binding it failed: the next event adopts it rather
// than post another; a placeholder someone else edited is not adopted, but ignored.
func TestClaimAdoptsPlaceholder(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, edited := range []bool{false, true} {
		t.Run(fmt.Sprint("edited ", edited), func(t *testing.T) {
			m, w := newMemBranch(), &fakeWriter{nextID: 1, updateErr: errors.New("502 Bad Gateway")}
			_, err := saved(t, m, w, nil, now, withSeq(2))
			require.ErrorContains(t, err, "502")
			require.Equal(t, []string{"create #7", "update 1"}, w.calls)
			claim := claimOf(t, m)
			require.NotNil(t, claim)
			p := placeholderOf(w, 1)
			require.Contains(t, p.Body, placeholderMarker(claim.Nonce), "the placeholder carries the claim's nonce")
			require.False(t, HasMarker(p.Body))
			if edited {
				p.Edited, p.Editor, p.Body = true, "mallory", p.Body+" hi"
			}

			w.calls, w.updateErr, w.nextID = nil, nil, 2
			d, err := saved(t, m, w, []Comment{p}, now.Add(time.Minute), withSeq(3))
			require.NoError(t, err)
			if !edited {
				assert.Equal(t, []string{"update 1"}, w.calls, "adopted: edited into the state comment")
				assert.Equal(t, claim, claimOf(t, m))
				_, why, err := Check(ours(1, w.bodies[1]))
				require.NoError(t, err)
				assert.Empty(t, why)
				return
			}
			assert.Equal(t, []string{"create #7", "update 2"}, w.calls, "posted anew under a new claim")
			assert.NotEqual(t, claim.Nonce, claimOf(t, m).Nonce)
			require.Len(t, d.NewlyIgnored(), 1)
			assert.Equal(t, int64(1), d.NewlyIgnored()[0].ID)
			assert.Contains(t, d.NewlyIgnored()[0].Why, "placeholder of the state comment, edited by mallory")
		})
	}
}

// With no placeholder, a claim holds until it ends; a posting GitHub refused ends it at
// once, one whose outcome is unknown does not.
func TestClaimEnds(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		err     error
		release bool
	}{
		{"refused", errors.New("POST .../comments: 502 Bad Gateway"), true},
		{"no answer", &url.Error{Op: "Post", URL: "https://api.github.com", Err: errors.New("GitHub did not answer within 30s")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, w := newMemBranch(), &fakeWriter{nextID: 1, err: tc.err}
			_, err := saved(t, m, w, nil, now, withSeq(2))
			require.Error(t, err)
			claim := claimOf(t, m)
			require.NotNil(t, claim)
			assert.Equal(t, tc.release, claim.Until.Equal(now), "until %s", claim.Until)
			if tc.release {
				assert.Equal(t, "pr-7: the state comment was not posted (pull_request.opened by dev)", m.messages[len(m.messages)-1])
			}

			w.calls, w.err = nil, nil
			_, err = saved(t, m, w, nil, now.Add(time.Minute), withSeq(3))
			require.NoError(t, err)
			assert.Equal(t, tc.release, creates(w) == 1, "posted at once only after a refusal: %v", w.calls)
			if !tc.release {
				_, err = saved(t, m, w, nil, claim.Until, withSeq(4))
				require.NoError(t, err)
				assert.Equal(t, 1, creates(w), "posted once the claim ended")
				assert.NotEqual(t, claim.Nonce, claimOf(t, m).Nonce)
			}
		})
	}
}

// Where the branch refuses the action, no claim is written: the events are serialised
// by the concurrency group, and a placeholder left by an earlier event is adopted.
func TestClaimForbiddenAdoptsPlaceholder(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m, w := newMemBranch(), &fakeWriter{nextID: 1, updateErr: errors.New("502 Bad Gateway")}
	m.forbidden = true
	d, err := saved(t, m, w, nil, now, withSeq(2))
	require.ErrorContains(t, err, "502")
	assert.True(t, d.Forbidden())
	w.calls, w.updateErr, w.nextID = nil, nil, 2
	d, err = saved(t, m, w, []Comment{placeholderOf(w, 1)}, now.Add(time.Minute), withSeq(3))
	require.NoError(t, err)
	assert.True(t, d.Forbidden())
	assert.Equal(t, []string{"update 1"}, w.calls)
	assert.Contains(t, w.bodies[1], "State branch refused.")
}

// A file without a claim is written as it was; one with a claim reads back the same.
func TestClaimInFile(t *testing.T) {
	st := withSeq(2)
	plain, err := EncodeFile(st)
	require.NoError(t, err)
	assert.NotContains(t, plain, "comment_claim")
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	claim := &Claim{Nonce: "abc", At: at, Until: at.Add(time.Minute), After: 12}
	text, err := encodeFile(st, claim, nil)
	require.NoError(t, err)
	got, gotClaim, err := decodeFile(text, st.Subject)
	require.NoError(t, err)
	assert.Equal(t, st, got)
	assert.Equal(t, claim, gotClaim)
	assert.True(t, claim.inFlight(at))
	assert.False(t, claim.inFlight(at.Add(time.Minute)))
	assert.False(t, (&Claim{At: at, Until: at.Add(24 * time.Hour)}).inFlight(at.Add(model.MaxIntentLease)), "bounded")
	assert.Equal(t, "abc", placeholderNonce("status\n\n"+placeholderMarker("abc")))
	assert.Empty(t, placeholderNonce("status <!-- pipeline-action:placeholder a b -->"))
}

// A state that did not change still takes a commit to claim its comment, which says so.
func TestClaimOnlyCommit(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m, w := newMemBranch(), &fakeWriter{nextID: 1}
	_, err := NewBranchStore(m, m.read("pr-7.json"), "pr-7.json", "acme/widgets#7", viewer, nil).
		Save(t.Context(), 7, change(nil, withSeq(2)), Version{})
	require.NoError(t, err)
	_, err = saved(t, m, w, nil, now, withSeq(2))
	require.NoError(t, err)
	assert.Equal(t, "pr-7: claim to post the state comment (pull_request.opened by dev)", m.messages[len(m.messages)-1])
	assert.NotNil(t, claimOf(t, m))
	assert.Equal(t, []string{"create #7", "update 1"}, w.calls)
}

// A claimer whose commit was made but whose posting never happened leaves the subject
// without a state comment until its claim ends. The save that leaves the comment to it
// lists that end in the index, so that the sweep comes back then, whatever events come;
// the save that posts the comment, or knows it, lists it no more.
func TestClaimEndIsListedForTheSweep(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	shard := ShardFile("pr-7.json")
	m, w := newMemBranch(), &fakeWriter{nextID: 1,
		err: &url.Error{Op: "Post", URL: "https://api.github.com", Err: errors.New("GitHub did not answer within 30s")}}
	_, err := saved(t, m, w, nil, now, withSeq(2))
	require.Error(t, err)
	claim := claimOf(t, m)
	require.NotNil(t, claim)
	assert.True(t, claimDueListed(m.files[shard], "pr-7.json").IsZero(), "the claimer's own commit lists no end: it posts next")

	// An event that decides nothing new still lists the end, once.
	w.calls, w.err = nil, nil
	commits := len(m.messages)
	_, err = saved(t, m, w, nil, now.Add(time.Minute), withSeq(2))
	require.NoError(t, err)
	assert.Empty(t, w.calls, "the comment is left to the claim in flight")
	require.Equal(t, commits+1, len(m.messages), "one commit lists the claim's end")
	assert.Equal(t, "pr-7: the state comment is left to the claim in flight, until "+claim.Until.Format(time.RFC3339)+" (pull_request.opened by dev)",
		m.messages[len(m.messages)-1])
	idx, err := DecodeIndex(m.files[shard])
	require.NoError(t, err)
	var entry *IndexEntry
	for i, e := range idx.Runs {
		if e.CommentClaim() {
			entry = &idx.Runs[i]
		}
	}
	require.NotNil(t, entry, "the index lists the claim: %s", m.files[shard])
	assert.Equal(t, IndexEntry{Subject: "acme/widgets#7", File: "pr-7.json", Status: "waiting", Updated: claim.Until, NextDeadline: claim.Until}, *entry)
	_, err = saved(t, m, w, nil, now.Add(2*time.Minute), withSeq(2))
	require.NoError(t, err)
	assert.Equal(t, commits+1, len(m.messages), "listed already: nothing written")

	// At its end, the save claims anew and posts; its commit lists the end no more.
	_, err = saved(t, m, w, nil, claim.Until, withSeq(2))
	require.NoError(t, err)
	assert.Equal(t, 1, creates(w))
	assert.True(t, claimDueListed(m.files[shard], "pr-7.json").IsZero(), "%s", m.files[shard])

	// A listing left behind (a claimer that posted after the end was listed) goes with the
	// next save that reads the comment, though it decides nothing new.
	text, err := EncodeIndex(idx)
	require.NoError(t, err)
	m.files[shard] = text
	commits = len(m.messages)
	_, err = saved(t, m, w, commentsOf(w), claim.Until.Add(time.Hour), withSeq(2))
	require.NoError(t, err)
	assert.Equal(t, commits+1, len(m.messages))
	assert.Equal(t, "pr-7: the state comment's claim is no longer a deadline (pull_request.opened by dev)", m.messages[len(m.messages)-1])
	assert.True(t, claimDueListed(m.files[shard], "pr-7.json").IsZero(), "%s", m.files[shard])
}
