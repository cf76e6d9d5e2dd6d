package world

// Push is one update of a branch through the API — a commit made on it, a pull request
// merged into it — for which GitHub sends a push event. Whether that event starts a
// workflow depends on the token that made it: GITHUB_TOKEN's start none, an app's start
// every workflow on push, its CI's included.
type Push struct {
	Branch        string
	Before, After string // Before is "" for a branch created
	Pusher        string // the login whose token made it
}

// LogPush records that pusher moved branch from before to after.
func (r *Repo) LogPush(branch, before, after, pusher string) {
	r.PushLog = append(r.PushLog, Push{Branch: branch, Before: before, After: after, Pusher: pusher})
}
