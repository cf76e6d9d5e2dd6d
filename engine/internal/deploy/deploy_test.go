package deploy

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestLatest(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ds := Deployments{
		{ID: 1, Environment: "staging", State: "success", CreatedAt: t0},
		{ID: 3, Environment: "production", State: "failure", CreatedAt: t0},
		{ID: 2, Environment: "Staging", State: "failure", CreatedAt: t0.Add(time.Minute)},
		{ID: 4, Environment: "production", State: "success", CreatedAt: t0},
	}
	d, ok := ds.Latest("staging")
	assert.True(t, ok)
	assert.Equal(t, int64(2), d.ID, "the later one, the environment's case aside")
	d, _ = ds.Latest("production")
	assert.Equal(t, int64(4), d.ID, "at the same time, the higher id")
	_, ok = ds.Latest("qa")
	assert.False(t, ok)
}
