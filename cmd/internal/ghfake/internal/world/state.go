package world

import (
	"sort"
	"sync"
	"time"
)

// BotLogin is the REST login of the identity the action runs as.
const BotLogin = "github-actions[bot]"

// World is the fake's world: its repositories, the people and teams with their permissions,
// the clock, and the counters ids come from. Its methods change it as GitHub's users and
// GitHub itself do; those documented "the caller holds Mu" leave locking Mu to it.
type World struct {
	// Mu guards the world; the server that serves it guards its own records with it too.
	Mu        sync.Mutex
	Now       func() time.Time
	Repos     map[string]*Repo
	Users     map[string]string   // login → permission, for every repository
	Teams     map[string][]string // org/slug → members
	NextID    int64
	NextBigID int64 // comments, reviews, check runs and deployments: above 2^32, as on github.com
	CommitSeq int64 // commits made so far (Commit.Seq)
}

// SetClock sets the clock used for every timestamp the world records (created_at, submitted_at...).
func (s *World) SetClock(now func() time.Time) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.Now = now
}

// Clock returns the world's current time, truncated to seconds as GitHub's timestamps are.
// The caller holds Mu.
func (s *World) Clock() time.Time { return s.Now().UTC().Truncate(time.Second) }

// NewBigID returns a fresh id above 2^32, for comments, reviews and check runs. The
// caller holds Mu.
func (s *World) NewBigID() int64 {
	s.NextBigID++
	return s.NextBigID
}

// NextCommentID is the id the next comment will get (ids are handed out in order), for
// tests that play an attacker who guesses it.
func (s *World) NextCommentID() int64 {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return s.NextBigID + 1
}

// NewID returns a fresh database id. The caller holds Mu.
func (s *World) NewID() int64 {
	s.NextID++
	return s.NextID
}

// PermissionOf is a user's permission on the repositories; the action's bot may write.
func (s *World) PermissionOf(login string) string {
	if login == BotLogin {
		return "write"
	}
	if p, ok := s.Users[login]; ok {
		return p
	}
	return "none"
}

// PermRank orders permissions; unknown users rank as "none".
var PermRank = map[string]int{"none": 0, "read": 1, "triage": 2, "write": 3, "maintain": 4, "admin": 5}

// CanPush reports whether the permission lets a user push to the repository.
func CanPush(perm string) bool { return PermRank[perm] >= PermRank["write"] }

// Branches returns the names of the branches of repoName, sorted.
func (s *World) Branches(repoName string) []string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	out := make([]string, 0, len(r.Branches))
	for name := range r.Branches {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
