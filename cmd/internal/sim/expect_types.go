package sim

// expectation is the form of `expect`, at the end or as a step. Every key is optional.
type expectation struct {
	PRs        map[int]subjectExpect `yaml:"prs"`
	Issues     map[int]subjectExpect `yaml:"issues"`
	Runs       []runExpect           `yaml:"runs"`
	Dispatches []dispatchBound       `yaml:"dispatches"`
	// Reruns are the workflows whose failed jobs were re-run (`/pipeline retest`), in order.
	Reruns *[]string `yaml:"reruns"`
	// Branches is the exact set of branches of the repository (not of forks).
	Branches *[]string `yaml:"branches"`
	// StateBranch is what the branch holding the state (settings.state_branch) holds.
	StateBranch *stateBranchExpect `yaml:"state_branch"`
	// Reminders counts the reminder comments a human stage posted, by subject number.
	Reminders map[int]int `yaml:"reminders"`
	// Requests counts the webhook calls made.
	Requests []requestExpect `yaml:"requests"`
	// Repos checks the pull requests of other repositories.
	Repos map[string]repoExpect `yaml:"repos"`
	// Nowhere are strings nothing the action kept or showed contains.
	Nowhere []string `yaml:"nowhere"`
	// JobErrors: each is in an ::error:: line of the action's jobs so far; [] none failed.
	JobErrors *[]string `yaml:"job_errors"`
	// JobWarnings: each is in a ::warning:: line of the action's jobs so far; [] none warned.
	JobWarnings *[]string `yaml:"job_warnings"`
	// APICalls and ContentWrites bound the requests to GitHub of every step so far, all of
	// them and the content-creating ones.
	APICalls      *callBound `yaml:"api_calls"`
	ContentWrites *callBound `yaml:"content_writes"`
	// Explain checks the last explain step's output; Writes is exactly how many write
	// requests the action made in every step so far.
	Explain *explainExpect `yaml:"explain"`
	Writes  *int           `yaml:"writes"`
}

// stateBranchExpect checks the state branch: whether it exists, and files that are at its
// head (a subset: others may be there too).
type stateBranchExpect struct {
	Exists *bool    `yaml:"exists"`
	Files  []string `yaml:"files"`
	// Commits is how many commits the branch has (following first parents).
	Commits *int `yaml:"commits"`
	// MaxFileBytes bounds every file at the branch's head.
	MaxFileBytes *int `yaml:"max_file_bytes"`
}

type subjectExpect struct {
	Merged *bool `yaml:"merged"`
	// MergeCommit is the whole message of the commit the pull request's merge made.
	MergeCommit *string `yaml:"merge_commit"`
	// UpToDate: the pull request's head contains its base branch's head.
	UpToDate *bool     `yaml:"up_to_date"`
	Closed   *bool     `yaml:"closed"`
	Labels   *[]string `yaml:"labels"`
	Comments *int      `yaml:"comments"`
	// CommentsAtMost bounds the action's state comments on the subject.
	CommentsAtMost  *int     `yaml:"comments_at_most"`
	CommentContains []string `yaml:"comment_contains"`
	// CommentsContain: some comment the action posted (the state comment included)
	// contains each of these.
	CommentsContain []string `yaml:"comments_contain"`
	// Statuses and StatusWrites check the commit statuses on a pull request's head.
	Statuses     map[string]string `yaml:"statuses"`
	StatusWrites map[string]int    `yaml:"status_writes"`
}

type runExpect struct {
	Pipeline string `yaml:"pipeline"`
	Subject  string `yaml:"subject"`
	Status   string `yaml:"status"`
	Stage    string `yaml:"stage"`
	// Stages: the status of stages and branches of the run (succeeded, cancelled, …).
	Stages map[string]string `yaml:"stages"`
	// Parent: the run is a sub-pipeline's, started by this "<run id>/<stage id>".
	Parent string `yaml:"parent"`
}
