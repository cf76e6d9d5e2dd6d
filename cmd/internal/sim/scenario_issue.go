package sim

import "fmt"

// issueAlias lets a step name an issue as `issue: N` where it names a pull request as `pr: N`
// (label, comment, report): GitHub numbers issues and pull requests alike.
func issueAlias(pr *int, issue int, kind string) error {
	switch {
	case issue == 0:
		return nil
	case *pr != 0:
		return fmt.Errorf("%s takes pr or issue, not both", kind)
	}
	*pr = issue
	return nil
}
