package gates

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/model"
)

const berlinWindow = `{window: {days: [mon-thu], hours: "09:00-17:00", timezone: Europe/Berlin}, freeze: ["2026-12-21/2027-01-03", "2026-12-03"]}`

func berlin(t *testing.T, s string) time.Time {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Berlin")
	require.NoError(t, err)
	at, err := time.ParseInLocation("2006-01-02 15:04", s, loc)
	require.NoError(t, err)
	return at
}

func TestSchedule(t *testing.T) {
	c := mustCompile(t, Schedule{}, ScheduleName, berlinWindow)
	at := func(s string) *model.Facts { f := facts(); f.Now = berlin(t, s).UTC(); return f }
	tests := []struct {
		at      string
		status  model.GateStatus
		message string
	}{
		{"2026-12-01 10:00", model.GatePass, "inside the window (mon-thu 09:00-17:00 Europe/Berlin)"}, // a tuesday
		{"2026-12-01 08:59", model.GatePending, "outside the window (mon-thu 09:00-17:00 Europe/Berlin); looks again at 2026-12-01 09:00 CET"},
		{"2026-12-01 17:00", model.GatePending, "outside the window (mon-thu 09:00-17:00 Europe/Berlin); looks again at 2026-12-02 09:00 CET"},
		{"2026-12-04 10:00", model.GatePending, "outside the window (mon-thu 09:00-17:00 Europe/Berlin); looks again at 2026-12-07 09:00 CET"}, // friday
		{"2026-12-03 10:00", model.GatePending, "frozen from 2026-12-03 to 2026-12-03; looks again at 2026-12-07 09:00 CET"},
		{"2026-12-28 10:00", model.GatePending, "frozen from 2026-12-21 to 2027-01-03; looks again at 2027-01-04 09:00 CET"},
	}
	for _, tt := range tests {
		t.Run(tt.at, func(t *testing.T) {
			res := c.Evaluate(at(tt.at))
			assert.Equal(t, tt.status, res.Status)
			assert.Equal(t, tt.message, res.Message)
		})
	}
	res := c.Evaluate(facts())
	assert.Equal(t, model.GateError, res.Status, "no event time: never the machine's clock")
}

func TestScheduleNextChange(t *testing.T) {
	c := mustCompile(t, Schedule{}, ScheduleName, `{window: {hours: "22:00-24:00"}}`).(model.Clocked)
	now := time.Date(2026, 3, 29, 23, 30, 0, 0, time.UTC)
	assert.Equal(t, time.Date(2026, 3, 30, 0, 0, 0, 0, time.UTC), c.NextChange(now), "the window ends at midnight")
	// Across a change of clocks, the edge is the local 09:00 of the day.
	b := mustCompile(t, Schedule{}, ScheduleName, `{window: {hours: "09:00-17:00", timezone: Europe/Berlin}}`).(model.Clocked)
	assert.Equal(t, berlin(t, "2026-03-29 09:00"), b.NextChange(berlin(t, "2026-03-29 01:00")))
	f := mustCompile(t, Schedule{}, ScheduleName, `{freeze: ["2020-01-01"]}`).(model.Clocked)
	assert.True(t, f.NextChange(now).IsZero(), "a freeze in the past changes nothing")
}

func TestScheduleMistakes(t *testing.T) {
	for params, want := range map[string]string{
		`{}`:                                  `check "schedule" needs "window", "freeze" or both`,
		`{window: {days: [someday]}}`:         `"days" of check "schedule": "someday" is not a day`,
		`{window: {hours: "17:00-09:00"}}`:    `"hours" of check "schedule": "17:00-09:00" is not a range of hours`,
		`{window: {timezone: Mars/Olympus}}`:  `"timezone" of check "schedule": "Mars/Olympus" is not a timezone`,
		`{freeze: ["2027-01-03/2026-12-21"]}`: `"freeze" of check "schedule": "2027-01-03/2026-12-21" is not a date`,
		`{window: "always"}`:                  `"window" of check "schedule" must be a mapping`,
	} {
		_, errs := compile(t, Schedule{}, ScheduleName, params)
		require.NotEmpty(t, errs, params)
		assert.Contains(t, errs[0].Message, want, params)
	}
}
