package ghfake

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	readDoc  = `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 7) { id } } }`
	writeDoc = `mutation($id: ID!) { addComment(input: {subjectId: $id, body: "x"}) { commentEdge { node { id } } } }`
)

// post sends a GraphQL document with token and returns the HTTP status (no testing.T: it runs
// in goroutines).
func post(s *Server, token, query string, vars map[string]any) (int, error) {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, s.URL+"/api/graphql", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// async runs f in a goroutine and returns a channel that receives when it is done.
func async(f func()) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	return done
}

func prID(t *testing.T, s *Server) map[string]any {
	out := gql(t, s, s.BotToken(), readDoc, nil)
	return map[string]any{"id": dig(t, out, "data", "repository", "pullRequest", "id")}
}

func finished(done <-chan struct{}, within time.Duration) bool {
	select {
	case <-done:
		return true
	case <-time.After(within):
		return false
	}
}

// A participant's write waits until every participant has read; then all writes go.
func TestBarrierHoldsWritesUntilAllRead(t *testing.T) {
	s := widgets(t)
	vars := prID(t, s)
	a, b, c := s.NewBotToken(), s.NewBotToken(), s.NewBotToken()
	assert.NotEqual(t, a, b)
	bar := s.ArmBarrier([]string{a, b, c}, time.Minute)

	gql(t, s, a, readDoc, nil)
	wrote := async(func() { _, _ = post(s, a, writeDoc, vars) })
	assert.False(t, finished(wrote, 100*time.Millisecond), "a's write waits for b and c")
	assert.Empty(t, s.Comments(testRepo, 7))

	// Someone else's requests pass: the barrier holds its participants only.
	gql(t, s, s.BotToken(), writeDoc, vars)
	require.Len(t, s.Comments(testRepo, 7), 1)

	// A REST write is held too, a REST read counts as a read.
	restWrote := async(func() {
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/v3/repos/acme/widgets/issues/7/comments", bytes.NewBufferString(`{"body":"rest"}`))
		req.Header.Set("Authorization", "token "+b)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	})
	assert.False(t, finished(restWrote, 100*time.Millisecond), "b has not read")
	_, _, err := client(t, s, b).Issues.Get(t.Context(), "acme", "widgets", 7)
	require.NoError(t, err)
	assert.False(t, finished(wrote, 100*time.Millisecond), "c has not read")
	assert.Equal(t, BarrierStats{Participants: 3, Read: 2, Held: 2}, bar.Stats())

	gql(t, s, c, readDoc, nil)
	require.True(t, finished(wrote, 5*time.Second))
	require.True(t, finished(restWrote, 5*time.Second))
	assert.Len(t, s.Comments(testRepo, 7), 3)
	// Once released, writes pass at once.
	require.True(t, finished(async(func() { _, _ = post(s, c, writeDoc, vars) }), 5*time.Second))
	assert.Equal(t, BarrierStats{Participants: 3, Read: 3, Held: 2, Released: true}, bar.Disarm())
}

// A participant that leaves without reading no longer holds the others; one that never reads
// nor leaves holds them only until the timeout.
func TestBarrierLeaveAndTimeout(t *testing.T) {
	s := widgets(t)
	vars := prID(t, s)
	a, b := s.NewBotToken(), s.NewBotToken()
	bar := s.ArmBarrier([]string{a, b}, time.Minute)
	gql(t, s, a, readDoc, nil)
	wrote := async(func() { _, _ = post(s, a, writeDoc, vars) })
	assert.False(t, finished(wrote, 100*time.Millisecond))
	bar.Leave(b)
	require.True(t, finished(wrote, 5*time.Second))
	assert.Equal(t, BarrierStats{Participants: 1, Read: 1, Held: 1, Released: true}, bar.Disarm())

	bar = s.ArmBarrier([]string{a, b}, 200*time.Millisecond)
	gql(t, s, a, readDoc, nil)
	start := time.Now()
	code, err := post(s, a, writeDoc, vars)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, code)
	assert.GreaterOrEqual(t, time.Since(start), 200*time.Millisecond)
	st := bar.Disarm()
	assert.True(t, st.TimedOut)
	assert.False(t, st.Released)

	// Disarmed, nothing is held.
	require.True(t, finished(async(func() { _, _ = post(s, b, writeDoc, vars) }), 5*time.Second))
	// Disarm releases writes held.
	bar = s.ArmBarrier([]string{a, b}, time.Minute)
	wrote = async(func() { _, _ = post(s, a, writeDoc, vars) })
	assert.False(t, finished(wrote, 100*time.Millisecond))
	bar.Disarm()
	require.True(t, finished(wrote, 5*time.Second))
}
