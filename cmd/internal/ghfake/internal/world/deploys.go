package world

import "time"

// Deploy is a deployment of a commit to an environment, with its statuses, oldest first.
type Deploy struct {
	ID          int64
	Environment string
	Creator     string
	CreatedAt   time.Time
	Statuses    []*DeployStatus
}

// DeployStatus is one status of a deployment: its state in lower case, as REST spells it.
type DeployStatus struct {
	ID        int64
	State     string
	CreatedAt time.Time
}

// Latest returns the deployment's latest status, or nil.
func (d *Deploy) Latest() *DeployStatus {
	if len(d.Statuses) == 0 {
		return nil
	}
	return d.Statuses[len(d.Statuses)-1]
}

// AddDeploy records a deployment of c to environment with a first status in state. The
// caller holds Mu.
func (s *World) AddDeploy(c *Commit, environment, creator, state string) (*Deploy, *DeployStatus) {
	now := s.Clock()
	d := &Deploy{ID: s.NewBigID(), Environment: environment, Creator: creator, CreatedAt: now}
	st := &DeployStatus{ID: s.NewBigID(), State: state, CreatedAt: now}
	d.Statuses = append(d.Statuses, st)
	c.Deploys = append(c.Deploys, d)
	return d, st
}
