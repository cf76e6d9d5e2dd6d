// Package actionplan plans the effects of actions: those of action stages (other than
// merge_pr and plain labels or comments) and the items of a pipeline's on_complete and
// on_error lists. A plan is an Effect to ask for, nothing to do, or why it cannot be done;
// it is derived from the action's arguments, its rendered templates and the evaluation's
// facts, and changes nothing itself.
//
// Posting (a comment, a notification, a new issue) cannot be undone and GitHub does not
// deduplicate it, so it is write-ahead; labels, assignees, review requests and closing an
// issue are idempotent and are not.
package actionplan
