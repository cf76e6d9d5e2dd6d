package ghfake

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// InARow chains two calls only when one ended before the other began, whatever order
// the calls come in; intervals that share a tick overlapped.
func TestInARowIntervals(t *testing.T) {
	chain := []Call{{Began: 9, Ended: 10}, {Began: 5, Ended: 6}, {Began: 1, Ended: 2}}
	assert.Equal(t, 3, InARow(chain), "a chain listed last first")
	nested := []Call{{Began: 1, Ended: 6}, {Began: 2, Ended: 3}, {Began: 4, Ended: 5}}
	assert.Equal(t, 2, InARow(nested), "two one after another beside a long one")
	overlapping := []Call{{Began: 1, Ended: 3}, {Began: 2, Ended: 5}, {Began: 4, Ended: 6}}
	assert.Equal(t, 2, InARow(overlapping), "each overlaps the next; the first and the last do not")
	assert.Equal(t, 0, InARow(nil))
}

// With a latency, requests a client sends together overlap on the fake's clock and
// count once; requests sent one after another each count.
func TestInARowOfRequestsSentTogether(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	s.SetLatency(100 * time.Millisecond)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, errs[i] = c.PullRequests.Get(ctx, "acme", "widgets", 7)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	calls := s.Calls()
	require.Len(t, calls, 3)
	assert.Equal(t, 1, InARow(calls), "sent together: %+v", calls)

	s.ResetStats()
	for range 2 {
		_, _, err := c.PullRequests.Get(ctx, "acme", "widgets", 7)
		require.NoError(t, err)
	}
	assert.Equal(t, 2, InARow(s.Calls()))
}
