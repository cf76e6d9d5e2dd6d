package sim

// The values of the steps that change the world (docs/scenarios.md, "Steps").

type openPR struct {
	Number int      `yaml:"number"`
	Author string   `yaml:"author"`
	Base   string   `yaml:"base"`
	Head   string   `yaml:"head"`
	Title  string   `yaml:"title"`
	Body   string   `yaml:"body"`
	Files  []string `yaml:"files"`
	Labels []string `yaml:"labels"`
	Draft  bool     `yaml:"draft"`
	// Fork names the owner of the fork the head branch lives in (<fork>/<repo name>); the
	// head branch is then not a branch of the repository, whatever its name.
	Fork string `yaml:"fork"`
	// MaintainerCanModify false: a fork's pull request whose author does not allow edits by
	// maintainers (GitHub's default is to allow them).
	MaintainerCanModify *bool  `yaml:"maintainer_can_modify"`
	Deliver             *bool  `yaml:"deliver"`
	Repo                string `yaml:"repo"` // one of repos: its event is not delivered
}

type openIssue struct {
	Number  int      `yaml:"number"`
	Author  string   `yaml:"author"`
	Title   string   `yaml:"title"`
	Body    string   `yaml:"body"`
	Labels  []string `yaml:"labels"`
	Deliver *bool    `yaml:"deliver"`
}

type reviewStep struct {
	PR      int    `yaml:"pr"`
	User    string `yaml:"user"`
	State   string `yaml:"state"`
	Body    string `yaml:"body"`
	Deliver *bool  `yaml:"deliver"`
	Repo    string `yaml:"repo"`
	// Conversation: the review opens a review conversation (an inline comment's thread)
	// that stays open until a resolve step.
	Conversation bool `yaml:"conversation"`
}

type prStep struct { // dismiss_review, push, close_pr, conflict
	PR   int    `yaml:"pr"`
	User string `yaml:"user"`
	// Files (push only) are written by the pushed commit: path in the repository → a file
	// of the scenario's directory holding the content.
	Files   map[string]string `yaml:"files"`
	Deliver *bool             `yaml:"deliver"`
	// By (dismiss_review only) is who dismisses the review; the repository's owner by default.
	By   string `yaml:"by"`
	Repo string `yaml:"repo"`
}

// editPRStep changes a pull request as its author (or user) does in GitHub's UI; today
// its base branch.
type editPRStep struct {
	PR      int    `yaml:"pr"`
	User    string `yaml:"user"`
	Base    string `yaml:"base"`
	Deliver *bool  `yaml:"deliver"`
}

type labelStep struct {
	PR      int      `yaml:"pr"`
	Issue   int      `yaml:"issue"` // an issue: as pr (which GitHub numbers alike)
	Add     []string `yaml:"add"`
	Remove  []string `yaml:"remove"`
	Deliver *bool    `yaml:"deliver"`
	User    string   `yaml:"user"` // who adds and removes them; the author by default
}

// checkStep completes a check run on the PR's head: a job of an Actions workflow (the
// workflow named `workflow`, or by default one named after the check), or with `app` a
// check run of that app. A check of the same name in the same suite (same app, or same
// workflow) is a re-run and replaces the earlier one; any other stays beside it.
type checkStep struct {
	PR         int    `yaml:"pr"`
	Name       string `yaml:"name"`
	Conclusion string `yaml:"conclusion"`
	App        string `yaml:"app"`
	Workflow   string `yaml:"workflow"`
	Deliver    *bool  `yaml:"deliver"`
	Repo       string `yaml:"repo"`
	// MergeGroup: the check runs on the merge group of this pull request in its base's
	// merge queue (CI on merge_group), not on a pull request's head.
	MergeGroup int `yaml:"merge_group"`
}

// statusStep sets a commit status as user (default the PR's author). As the action's
// identity it plays another workflow writing it with GITHUB_TOKEN: no event is delivered.
type statusStep struct {
	PR      int    `yaml:"pr"`
	Context string `yaml:"context"`
	State   string `yaml:"state"`
	User    string `yaml:"user"`
	Deliver *bool  `yaml:"deliver"`
}

// commentStep posts a comment. As the action's identity (user: github-actions[bot]) it
// plays another workflow of the repository commenting with GITHUB_TOKEN: GitHub starts no
// workflow for that, so no event is delivered; forge_state then makes the body a crafted
// state comment bound to the id the comment gets.
type commentStep struct {
	PR      int        `yaml:"pr"`
	Issue   int        `yaml:"issue"` // an issue: as pr
	User    string     `yaml:"user"`
	Body    string     `yaml:"body"`
	Forge   *forgeSpec `yaml:"forge_state"`
	Deliver *bool      `yaml:"deliver"`
	// Count posts that many comments at once; only the last one's event is delivered.
	Count int `yaml:"count"`
}

// configStep commits a new config to the default branch (no event: the action does not
// react to pushes of its config; runs already started keep the config they started under).
// file is a config file, or a directory as `config:` takes one; it replaces every file of
// the config before it (a file no longer there is deleted).
type configStep struct {
	File string `yaml:"file"`
}

// togetherStep is `together`: the world changes of all its steps, then all their events
// delivered at once, each to its own invocation, with the fake holding every invocation's
// first write until each has read (so that they really race).
type togetherStep struct {
	Steps []step
}

// notTogether are the step kinds `together` does not take: they are not changes of the
// world (expect) or nest (together).
var notTogether = map[string]string{
	"together": "together does not nest",
	"expect":   "expect checks the world between steps; put it after the together",
	"explain":  "explain reads the world between steps; put it after the together",
}

// stateBranchActions are what `state_branch` does to the branch that holds the state: delete
// it, or protect it with a ruleset that restricts its creation and updates.
var stateBranchActions = []string{"delete", "protect"}

type webhookStep struct {
	Event string `yaml:"event"`
	File  string `yaml:"file"`
}
