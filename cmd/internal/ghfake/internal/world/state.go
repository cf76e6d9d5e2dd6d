package world

import (
	"sync"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/perms"
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

	// scopes are the repositories each login reaches (People.Scope); none: all.
	scopes map[string]map[string]bool
	// grants are each token's scopes (People.Grant); none: every scope.
	grants map[string]perms.Permissions

	Log // what the code under test did through the API

	People // the users, teams and what their tokens reach
	Git    // repositories, branches, files and commits
	Rules  // branch protection and mergeability
	Queue  // the merge queues
}

// People changes and answers who may do what: the users' permissions, the teams, and the
// repositories and scopes each identity's token reaches.
type People struct{ *World }

// Git changes and answers the repositories' branches, files and commits.
type Git struct{ *World }

// Rules answers what branch protection and mergeability allow of a pull request.
type Rules struct{ *World }

// firstBigID starts the ids of comments, reviews and check runs. GitHub's passed 2^31
// (comments, in 2024) and 2^32 (check runs) long ago; ids above 2^32 here make any
// 32-bit truncation, or a read of the Int `databaseId`, fail in tests.
const firstBigID = 5_000_000_000

// New is an empty world whose timestamps come from now.
func New(now func() time.Time) *World {
	w := &World{
		Now:   now,
		Repos: map[string]*Repo{}, Users: map[string]string{}, Teams: map[string][]string{},
		NextID: 1000, NextBigID: firstBigID,
		Log: Log{Reactions: map[string]int64{}},
	}
	w.People, w.Git, w.Rules, w.Queue = People{w}, Git{w}, Rules{w}, Queue{w}
	return w
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
