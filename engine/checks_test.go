package engine

// unsupportedCheck is a check that loads but cannot be evaluated yet.
type unsupportedCheck struct{}

func (unsupportedCheck) Evaluate(*Facts) GateResult {
	return GateResult{Status: GateError, Message: "cannot evaluate"}
}
func (unsupportedCheck) Unsupported() string { return `check "file_exists"` }

// headFree is a check that reads nothing of the pull request's head.
type headFree struct{ Check }

func (headFree) HeadIndependent() bool { return true }
