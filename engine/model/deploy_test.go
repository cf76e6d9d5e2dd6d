package model

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestLatest(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ds := Deployments{
		{Environment: "staging", State: "success", CreatedAt: t0.Add(time.Minute)},
		{Environment: "production", State: "failure", CreatedAt: t0},
		{Environment: "Staging", State: "failure", CreatedAt: t0},
		{Environment: "production", State: "success", CreatedAt: t0},
	}
	d, ok := ds.Latest("staging")
	assert.True(t, ok)
	assert.Equal(t, "success", d.State, "the later one, the environment's case aside, wherever it is in the list")
	d, _ = ds.Latest("production")
	assert.Equal(t, "success", d.State, "at the same time, the later in GitHub's order")
	_, ok = ds.Latest("qa")
	assert.False(t, ok)
}
