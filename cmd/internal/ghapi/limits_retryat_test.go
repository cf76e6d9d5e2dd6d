package ghapi_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// An effect a rate limit refused says when the limit ends, for the stage to wait for it:
// the primary limit's reset, or a secondary limit's retry-after; a refusal that is no
// rate limit says nothing.
func TestRateLimitRefusalSaysWhenItEnds(t *testing.T) {
	for name, tt := range map[string]struct {
		spend bool // the fake's counted primary limit, spent
		fault *ghfake.Fault
		want  time.Time
	}{
		"the primary limit spent":     {spend: true, want: clock.Add(time.Hour)},
		"a primary limit's fault":     {fault: &ghfake.Fault{Status: 403, Message: "API rate limit exceeded for installation ID 1.", Reset: 1800}, want: clock.Add(30 * time.Minute)},
		"a secondary limit":           {fault: &ghfake.Fault{Status: 403, Message: "You have exceeded a secondary rate limit", RetryAfter: 600}, want: clock.Add(10 * time.Minute)},
		"a refusal that is no limit":  {fault: &ghfake.Fault{Status: 403, Message: "Resource not accessible by integration"}},
		"a server error, not a limit": {fault: &ghfake.Fault{Status: 502, Message: "Bad Gateway"}},
	} {
		t.Run(name, func(t *testing.T) {
			fake, _ := setup(t)
			head := openPR(fake)
			c, _ := limitedClient(t, fake, ghapi.Limits{})
			if tt.spend {
				fake.EnforcePrimaryLimits(ghfake.TokenGitHub)
				fake.SpendPrimary(ghfake.BotLogin, "core", 1000) // GITHUB_TOKEN's hour
			}
			if tt.fault != nil {
				fake.Inject("pulls/merge", *tt.fault)
			}
			o := c.Perform(t.Context(), mergeEffect(head))
			assert.NotEmpty(t, o.Err)
			assert.Equal(t, tt.want.Unix(), o.RetryAt.Unix(), "%s", o.RetryAt)
			assert.Equal(t, tt.want.IsZero(), o.RetryAt.IsZero())
			if tt.spend {
				assert.Equal(t, "merge refused (403): API rate limit exceeded for installation ID 1.", o.Err)
			}
		})
	}
}
