package ghapi

import "github.com/org/pipeline-action/engine/model"

// actionsLogin is the login a workflow's GITHUB_TOKEN acts as.
const actionsLogin = "github-actions[bot]"

// actionsToken reports whether the client's token is a workflow's GITHUB_TOKEN, as the
// login it acts as (viewer) tells.
func (c *Client) actionsToken(viewer string) bool {
	return !c.appToken && model.SameIdentity(viewer, actionsLogin)
}
