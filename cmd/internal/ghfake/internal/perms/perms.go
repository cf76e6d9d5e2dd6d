// Package perms holds an installation token's scopes and the requirements GitHub writes in
// X-Accepted-GitHub-Permissions, and tells whether the scopes meet a requirement.
package perms

import "strings"

// Permissions are a token's scopes by GitHub App permission name (pull_requests, not the
// workflow's pull-requests) → "read" or "write"; a scope not named is none. metadata is
// always read, as for every installation token.
type Permissions map[string]string

// level orders none < read < write.
func level(v string) int {
	switch v {
	case "write":
		return 2
	case "read":
		return 1
	}
	return 0
}

// has reports whether p holds scope at access or above.
func (p Permissions) has(scope, access string) bool {
	if p == nil {
		return true
	}
	if scope == "metadata" && access == "read" {
		return true
	}
	return level(p[scope]) >= level(access)
}

// Need is a requirement as GitHub writes it in X-Accepted-GitHub-Permissions: sets of
// scope=access separated by "; ", any one of which suffices; within a set, every
// scope=access separated by "," is needed. "" needs nothing.
type Need string

// Alternatives splits n into its sets, dropping those drop rejects.
func (n Need) Alternatives(drop func(set string) bool) []string {
	var out []string
	for _, set := range strings.Split(string(n), ";") {
		set = strings.TrimSpace(set)
		if set != "" && (drop == nil || !drop(set)) {
			out = append(out, set)
		}
	}
	return out
}

// Satisfied reports whether p meets one of the sets.
func Satisfied(p Permissions, sets []string) bool {
	if p == nil || len(sets) == 0 {
		return true
	}
	for _, set := range sets {
		ok := true
		for _, item := range strings.Split(set, ",") {
			scope, access, _ := strings.Cut(strings.TrimSpace(item), "=")
			ok = ok && p.has(scope, access)
		}
		if ok {
			return true
		}
	}
	return false
}
