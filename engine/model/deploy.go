package model

import (
	"strings"
	"time"
)

// Deployment is one deployment of the head commit to an environment, with the state of
// its latest status ("" when it has none yet), lower case as the REST API and webhooks
// spell it: success, failure, error, inactive, in_progress, queued, pending. It has no id:
// GitHub's GraphQL gives a deployment only a 32-bit databaseId, which its ids outgrow.
type Deployment struct {
	Environment string
	State       string
	CreatedAt   time.Time
}

// Deployments are a commit's deployments in the order GitHub created them, oldest first.
type Deployments []Deployment

// Latest returns the latest deployment of ds to environment (compared without case), by
// creation time and then by GitHub's order (of two made in the same second, the later).
func (ds Deployments) Latest(environment string) (Deployment, bool) {
	var best Deployment
	found := false
	for _, d := range ds {
		if !strings.EqualFold(d.Environment, environment) {
			continue
		}
		if !found || !d.CreatedAt.Before(best.CreatedAt) {
			best, found = d, true
		}
	}
	return best, found
}
