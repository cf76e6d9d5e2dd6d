package state

import (
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
