// Package act changes the fake GitHub's world as its users and GitHub's own machinery do,
// and returns the webhook event GitHub would send for each change: PRs for what happens to
// pull requests and issues, CI for checks, statuses, deployments and workflow runs. Views
// answers tests' questions about what stands now.
package act

import "github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"

// PRs opens, reviews, labels, comments on, pushes to and closes pull requests and issues.
type PRs struct{ *shapes.Shapes }

// CI completes check runs, sets commit statuses, deploys and runs workflows.
type CI struct{ *shapes.Shapes }

// Views are what tests read of the world: pull requests, comments, dispatches, merges, and
// the events a command caused.
type Views struct{ *shapes.Shapes }
