package model

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"
)

// CodeOwnersPaths are where GitHub looks for CODEOWNERS, in its order: the first that
// exists is the repository's, the others are not read.
var CodeOwnersPaths = []string{".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"}

// CodeOwners is a repository's CODEOWNERS as read from its default branch.
type CodeOwners struct {
	// Path is where it was found; "" when none of CodeOwnersPaths holds one.
	Path  string
	Rules []CodeOwnerRule
	// Errors are the lines GitHub would skip ("line 4: …"): a rule the file meant to hold
	// that is not there, so whoever reads the file must not trust it until they are fixed.
	Errors []string
	// Truncated: GitHub gave only the start of a file too large to read whole.
	Truncated bool
}

// CodeOwnerRule is one line of CODEOWNERS: a pattern and who owns what it matches. A rule
// with no owners says the files it matches have none.
type CodeOwnerRule struct {
	Line    int
	Pattern string
	Owners  []string // "@login", "@org/team" or an e-mail address, as written
}

// ParseCodeOwners reads text, the CODEOWNERS found at p, as GitHub does: `#` starts a
// comment (`\#` is a literal one), a line is a pattern and its owners; GitHub does not
// support `!` negation nor `[ ]` ranges, and an owner is `@login`, `@org/team` or an
// e-mail address.
func ParseCodeOwners(p, text string) *CodeOwners {
	c := &CodeOwners{Path: p}
	for i, line := range strings.Split(text, "\n") {
		fields := strings.Fields(stripComment(line))
		if len(fields) == 0 {
			continue
		}
		rule := CodeOwnerRule{Line: i + 1, Pattern: strings.ReplaceAll(fields[0], `\#`, "#"), Owners: fields[1:]}
		if why := rule.invalid(); why != "" {
			c.Errors = append(c.Errors, fmt.Sprintf("line %d: %s", rule.Line, why))
			continue
		}
		c.Rules = append(c.Rules, rule)
	}
	return c
}

// stripComment drops what follows an unescaped `#`.
func stripComment(line string) string {
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\':
			i++
		case line[i] == '#':
			return line[:i]
		}
	}
	return line
}

func (r CodeOwnerRule) invalid() string {
	switch {
	case strings.HasPrefix(r.Pattern, "!"):
		return fmt.Sprintf("%q: negation is not supported in CODEOWNERS", r.Pattern)
	case strings.ContainsAny(r.Pattern, "[]"):
		return fmt.Sprintf("%q: character ranges are not supported in CODEOWNERS", r.Pattern)
	}
	for _, o := range r.Owners {
		login, isUser := strings.CutPrefix(o, "@")
		switch {
		case isUser && login != "" && strings.Count(login, "/") <= 1 && !strings.HasSuffix(login, "/"):
		case !isUser && strings.Contains(o, "@") && !strings.HasPrefix(o, "@"):
		default:
			return fmt.Sprintf("%q is not an owner (write @login, @org/team or an e-mail address)", o)
		}
	}
	return ""
}

// OwnersOf is who owns file: the owners of the last rule that matches it (none when that
// rule names none, or no rule matches).
func (c *CodeOwners) OwnersOf(file string) []string {
	var owners []string
	for _, r := range c.Rules {
		if CodeOwnersMatch(r.Pattern, file) {
			owners = r.Owners
		}
	}
	return owners
}

// CodeOwnersMatch matches a CODEOWNERS pattern against a file's path as gitignore does: a
// pattern with a slash at its start or in its middle is relative to the root, one without
// matches at any depth; `*` and `?` stay within a directory, `**` spans any number of them;
// a pattern ending in `/` names directories only; a pattern matching a directory matches
// everything below it, except that a trailing `/*` matches only the directory's own files.
func CodeOwnersMatch(pattern, file string) bool {
	dirOnly := strings.HasSuffix(pattern, "/")
	p := strings.TrimSuffix(pattern, "/")
	anchored := strings.Contains(p, "/")
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return false
	}
	pat := strings.Split(p, "/")
	if !anchored {
		pat = append([]string{"**"}, pat...)
	}
	name := strings.Split(file, "/")
	lastStar := pat[len(pat)-1] == "*"
	for n := len(name); n >= 1; n-- {
		isFile := n == len(name)
		if (isFile && dirOnly) || (!isFile && lastStar && anchored) {
			continue
		}
		if globMatch(pat, name[:n]) {
			return true
		}
	}
	return false
}

// globMatch matches the segments of a path against the segments of a pattern.
func globMatch(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := len(name); i >= 0; i-- {
				if globMatch(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], name[0]); err != nil || !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// OwnedFile is a changed file CODEOWNERS gives owners, with them.
type OwnedFile struct {
	File   string
	Owners []string
}

// Owned pairs each of files that c gives owners with them, in files' order.
func (c *CodeOwners) Owned(files []string) []OwnedFile {
	var out []OwnedFile
	for _, f := range files {
		if o := c.OwnersOf(f); len(o) > 0 {
			out = append(out, OwnedFile{File: f, Owners: o})
		}
	}
	return out
}

// CodeOwnersUnknown says why what CODEOWNERS decides about pr cannot be known whole, and
// who can fix it; "" when it can: CODEOWNERS read, present, whole and without a line GitHub
// skips, and every changed file listed.
func CodeOwnersUnknown(pr *PullRequest) (why, who string) {
	co := pr.CodeOwners
	switch {
	case co == nil:
		return "CODEOWNERS was not read", "a maintainer"
	case co.Path == "":
		return "there is no CODEOWNERS on the default branch (.github/CODEOWNERS, CODEOWNERS or docs/CODEOWNERS)", "a maintainer (add CODEOWNERS)"
	case co.Truncated:
		return co.Path + " is too large to read whole", "a maintainer (shorten " + co.Path + ")"
	case len(co.Errors) > 0:
		return co.Path + " has lines GitHub skips: " + strings.Join(co.Errors, "; "), "a maintainer (fix " + co.Path + ")"
	case !pr.FilesRead:
		return "the changed files were not read", "a maintainer"
	case pr.FilesTruncated:
		return "the pull request changes more files than GitHub lists", "a maintainer (split the pull request)"
	}
	return "", ""
}

// IsOwner says whether login is owner: the login itself, or a member of the team as read
// from GitHub (TeamMembers). err names a team whose members were not read. An e-mail
// address is no one the action can see.
func (f *Facts) IsOwner(owner, login string) (ok bool, err string) {
	name, isUser := strings.CutPrefix(owner, "@")
	switch {
	case !isUser:
		return false, ""
	case !strings.Contains(name, "/"):
		return strings.EqualFold(name, login), ""
	}
	members, read := f.TeamMembers[strings.ToLower(name)]
	if !read {
		return false, fmt.Sprintf("the members of team %s were not read", owner)
	}
	for _, m := range members {
		if strings.EqualFold(m, login) {
			return true, ""
		}
	}
	return false, ""
}

// OwnedBy says whether one of logins is one of owners; when none is, err names a team of
// owners whose members were not read (then one might be).
func (f *Facts) OwnedBy(owners, logins []string) (ok bool, err string) {
	for _, o := range owners {
		for _, l := range logins {
			yes, e := f.IsOwner(o, l)
			if yes {
				return true, ""
			}
			err = cmp.Or(err, e)
		}
	}
	return false, err
}

// CodeOwnersTeams are the teams ("org/slug") that own a changed file of pr, whose members
// what reads CODEOWNERS needs.
func CodeOwnersTeams(pr *PullRequest) []string {
	if pr == nil || pr.CodeOwners == nil {
		return nil
	}
	var teams []string
	for _, of := range pr.CodeOwners.Owned(pr.Files) {
		for _, o := range of.Owners {
			if t, ok := strings.CutPrefix(o, "@"); ok && strings.Contains(t, "/") && !slices.Contains(teams, t) {
				teams = append(teams, t)
			}
		}
	}
	return teams
}
