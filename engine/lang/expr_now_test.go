package lang

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNowIsTheEventsTime: now() gives the time of the event being evaluated, from the Env
// or its github root, and fails where there is none, never reading the machine's clock.
func TestNowIsTheEventsTime(t *testing.T) {
	at := time.Date(2026, 12, 24, 18, 30, 0, 0, time.UTC)
	e, cerr := CompileExpr(`now().Weekday().String() == "Thursday" && now().Hour() >= 17`, Pos{})
	require.Nil(t, cerr)
	ok, err := e.Bool(Env{ClockKey: at})
	require.NoError(t, err)
	assert.True(t, ok)
	ok, err = e.Bool(Env{"github": map[string]any{ClockKey: at.Add(-2 * time.Hour)}})
	require.NoError(t, err)
	assert.False(t, ok, "16:30 is before 17:00")

	_, err = e.Bool(Env{})
	assert.ErrorContains(t, err, "now() has no event time here")

	w, cerr := CompileExpr(`now().In(timezone("Europe/Berlin")).Hour()`, Pos{})
	require.Nil(t, cerr)
	v, err := w.Eval(Env{ClockKey: at})
	require.NoError(t, err)
	assert.Equal(t, 19, v)
}
