package lang

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMemoBuildsOncePerPipeline: a pipeline's memo is built once, whoever asks, at once or
// later; another key, or another pipeline, has its own.
func TestMemoBuildsOncePerPipeline(t *testing.T) {
	var p, q Pipeline
	type k1 struct{}
	type k2 struct{}
	var built atomic.Int32
	build := func() any { built.Add(1); return new(int) }
	var wg sync.WaitGroup
	got := make([]any, 8)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = p.Memo(k1{}, build) }()
	}
	wg.Wait()
	for _, v := range got {
		assert.Same(t, got[0], v, "every reader sees the one value kept")
	}
	assert.Same(t, got[0], p.Memo(k1{}, build))
	assert.NotSame(t, got[0], p.Memo(k2{}, build))
	assert.NotSame(t, got[0], q.Memo(k1{}, build))
	assert.LessOrEqual(t, int(built.Load()), 8+2, "built at most once per concurrent first reader")
}
