package lang

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"30s", 30 * time.Second},
		{"5m", 5 * time.Minute},
		{"2h", 2 * time.Hour},
		{"72h", 72 * time.Hour},
		{"7d", 7 * 24 * time.Hour},
		{"1d12h", 36 * time.Hour},
		{"1h30m", 90 * time.Minute},
		{"1.5h", 90 * time.Minute},
		{"500ms", 500 * time.Millisecond},
		{" 24h ", 24 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseDuration(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseDurationErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"3 days", `invalid duration "3 days"; use a number and a unit: 30s, 5m, 2h, 7d`},
		{"", `invalid duration ""; use a number and a unit: 30s, 5m, 2h, 7d`},
		{"30", `invalid duration "30"; use a number and a unit: 30s, 5m, 2h, 7d`},
		{"5w", `invalid duration "5w"; use a number and a unit: 30s, 5m, 2h, 7d`},
		{"h", `invalid duration "h"; use a number and a unit: 30s, 5m, 2h, 7d`},
		{"1..5h", `invalid duration "1..5h"; use a number and a unit: 30s, 5m, 2h, 7d`},
		{"-5m", `duration "-5m" must be positive`},
		{"0s", `duration "0s" must be positive`},
		{"0", `duration "0" must be positive`},
		{"0d0h", `duration "0d0h" must be positive`},
		{"999999999d", `duration "999999999d" is too long`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseDuration(tt.in)
			assert.EqualError(t, err, tt.want)
		})
	}
}
