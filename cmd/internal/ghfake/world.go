package ghfake

import (
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// BotLogin is the REST login of the identity the action runs as.
const BotLogin = "github-actions[bot]"

// The world the server serves (internal/world), under the names the handlers and
// resolvers use.
type (
	repo          = world.Repo
	branch        = world.Branch
	blob          = world.Blob
	commit        = world.Commit
	checkSuite    = world.CheckSuite
	checkRun      = world.CheckRun
	status        = world.Status
	issue         = world.Issue
	review        = world.Review
	comment       = world.Comment
	gitActor      = world.GitActor
	tree          = world.Tree
	treeEntry     = world.TreeEntry
	timelineEvent = world.TimelineEvent
	repoSettings  = world.RepoSettings
	mergeCalc     = world.MergeCalc
)

// Protection is the protection of one base branch and the repository's merge settings.
type Protection = world.Protection

// timeZeroValue is the zero time, for clearing timestamps.
var timeZeroValue time.Time

// permRank orders permissions; unknown users rank as "none".
var permRank = map[string]int{"none": 0, "read": 1, "triage": 2, "write": 3, "maintain": 4, "admin": 5}

// canPush reports whether the permission lets a user push to the repository.
func canPush(perm string) bool { return permRank[perm] >= permRank["write"] }
