package load

import (
	"regexp"
	"sync"
)

// githubLogin is a GitHub login as reviews carry it: a user's (letters, digits and single
// hyphens, at most 39 characters) or an app's, which ends in "[bot]".
var githubLogin = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\[bot\])?$`)
})

// agentLogin loads an agent's `login:`, the account whose reviews are its verdicts.
func (l *loader) agentLogin(v entry) string {
	s, ok := l.str(v)
	if !ok {
		return ""
	}
	if !githubLogin().MatchString(s) || len(s) > 39+len("[bot]") {
		l.errorf(v.val, kindValue, "%q must be a GitHub login (such as %q or %q), not %q", "login", "review-bot", "review-agent[bot]", s)
		return ""
	}
	return s
}
