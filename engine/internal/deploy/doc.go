// Package deploy is what the facts hold of a pull request head's deployments, and which
// of them is the latest to an environment, as the `deployment` check reads them.
package deploy
