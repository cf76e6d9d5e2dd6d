package deploy

import (
	"strings"
	"time"
)

// Deployment is one deployment of the head commit to an environment, with the state of
// its latest status ("" when it has none yet), lower case as the REST API and webhooks
// spell it: success, failure, error, inactive, in_progress, queued, pending.
type Deployment struct {
	ID          int64
	Environment string
	State       string
	CreatedAt   time.Time
}

// Deployments are a commit's deployments.
type Deployments []Deployment

// Latest returns the latest deployment of ds to environment (compared without case), by
// creation time and then id.
func (ds Deployments) Latest(environment string) (Deployment, bool) {
	var best Deployment
	found := false
	for _, d := range ds {
		if !strings.EqualFold(d.Environment, environment) {
			continue
		}
		if !found || d.CreatedAt.After(best.CreatedAt) || (d.CreatedAt.Equal(best.CreatedAt) && d.ID > best.ID) {
			best, found = d, true
		}
	}
	return best, found
}
