package engine

// headFree is a check that reads nothing of the pull request's head.
type headFree struct{ Check }

func (headFree) HeadIndependent() bool { return true }
