package ghapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/google/go-github/v60/github"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

var _ state.CommentWriter = (*Client)(nil)

// Perform carries out one effect and says how it went. It never panics on a refusal:
// GitHub's answer becomes the outcome's message.
func (c *Client) Perform(ctx context.Context, e model.Effect) model.Outcome {
	if e.Repo != "" && !strings.EqualFold(e.Repo, c.Owner+"/"+c.Repo) {
		return c.performIn(ctx, e)
	}
	var err error
	switch e.Kind {
	case model.EffectMerge:
		if err = c.merge(ctx, e); err != nil && queueRequired(err) {
			return c.enqueue(ctx, e)
		}
		if err != nil && mergeNeedsPerson(err) != "" {
			return model.Outcome{Key: e.Key, Err: strings.TrimSuffix(describe(e.Kind, err), ".") + ". " + mergeNeedsPerson(err), Escalate: true}
		}
	case model.EffectUpdateBranch:
		if err = c.updateBranch(ctx, e); err != nil {
			if why := c.updateRefused(ctx, e, err); why != "" {
				return model.Outcome{Key: e.Key, Err: why, Escalate: true}
			}
			var moved *headMovedError
			if errors.As(err, &moved) {
				return model.Outcome{Key: e.Key, Err: describe(e.Kind, err), HeadMoved: true}
			}
		}
	case model.EffectAddLabel:
		err = c.AddLabels(ctx, e.Number, e.Labels)
	case model.EffectRemoveLabel:
		for _, l := range e.Labels {
			if err = c.RemoveLabel(ctx, e.Number, l); err != nil {
				break
			}
		}
	case model.EffectComment:
		_, err = c.CreateComment(ctx, e.Number, e.Body+"\n\n"+model.EffectMarker(e.Key))
	case model.EffectDispatch:
		return c.dispatch(ctx, e)
	default:
		var handled bool
		if err, handled = c.performAction(ctx, e); !handled {
			return model.Outcome{Key: e.Key, Err: fmt.Sprintf("not supported yet: effect %q", e.Kind), Permanent: true}
		}
	}
	if err == nil {
		return model.Outcome{Key: e.Key}
	}
	return model.Outcome{Key: e.Key, Err: describe(e.Kind, err), Permanent: permanent(err), Unknown: unanswered(err),
		RetryAt: RetryAt(err, c.now())}
}

// merge merges the pull request at exactly e.SHA, then deletes its head branch if asked.
// https://docs.github.com/en/rest/pulls/pulls#merge-a-pull-request
func (c *Client) merge(ctx context.Context, e model.Effect) error {
	// GitHub keeps its own title or message for an empty one.
	_, _, err := c.rest.PullRequests.Merge(ctx, c.Owner, c.Repo, e.Number, e.Body, &github.PullRequestOptions{SHA: e.SHA, MergeMethod: e.Method, CommitTitle: e.Title})
	if err != nil {
		return fmt.Errorf("merging %s/%s#%d at %s: %w", c.Owner, c.Repo, e.Number, e.SHA, err)
	}
	// Only a branch the effect says is this repository's: heads/<name> here is not a fork's
	// branch of the same name (the engine never asks for that; an effect that does not say
	// where its branch lives deletes nothing).
	if e.Delete && e.HeadRef != "" && strings.EqualFold(e.HeadRepo, c.Owner+"/"+c.Repo) {
		// https://docs.github.com/en/rest/git/refs#delete-a-reference
		// The merge stands even if the branch cannot be deleted (it may be gone already).
		_, _ = c.rest.Git.DeleteRef(ctx, c.Owner, c.Repo, "heads/"+e.HeadRef)
	}
	return nil
}

// AddLabels adds labels to an issue or pull request.
// https://docs.github.com/en/rest/issues/labels#add-labels-to-an-issue
func (c *Client) AddLabels(ctx context.Context, number int, labels []string) error {
	if _, _, err := c.rest.Issues.AddLabelsToIssue(ctx, c.Owner, c.Repo, number, labels); err != nil {
		return fmt.Errorf("adding labels to %s/%s#%d: %w", c.Owner, c.Repo, number, err)
	}
	return nil
}

// RemoveLabel removes a label from an issue or pull request. GitHub answers 404 both when
// the label is not there (it is gone: the effect is done) and when the request named
// something else, so a 404 counts as done only when a fresh read of the issue's labels
// confirms that the label is absent.
// https://docs.github.com/en/rest/issues/labels#remove-a-label-from-an-issue
func (c *Client) RemoveLabel(ctx context.Context, number int, label string) error {
	if label == "" {
		// An empty segment would make the path .../labels/, which removes every label.
		return fmt.Errorf("removing a label from %s/%s#%d: the label name is empty", c.Owner, c.Repo, number)
	}
	resp, err := c.rest.Issues.RemoveLabelForIssue(ctx, c.Owner, c.Repo, number, pathSegment(label))
	if err == nil {
		return nil
	}
	if resp == nil || resp.StatusCode != http.StatusNotFound {
		return fmt.Errorf("removing label %q from %s/%s#%d: %w", label, c.Owner, c.Repo, number, err)
	}
	present, lerr := hasLabel(ctx, c.rest, c.Owner, c.Repo, number, label)
	switch {
	case lerr != nil:
		return fmt.Errorf("removing label %q from %s/%s#%d: %w (and the labels could not be read to tell whether it is gone: %v)",
			label, c.Owner, c.Repo, number, err, lerr)
	case present:
		return fmt.Errorf("removing label %q from %s/%s#%d: %w, yet the label is still there", label, c.Owner, c.Repo, number, err)
	}
	return nil
}

// hasLabel reads the labels of an issue or pull request and reports whether label is one of
// them (compared as GitHub compares labels: without regard to case).
// https://docs.github.com/en/rest/issues/labels#list-labels-for-an-issue
func hasLabel(ctx context.Context, rest *github.Client, owner, name string, number int, label string) (bool, error) {
	opts := &github.ListOptions{PerPage: 100}
	for page := 0; ; page++ {
		if page >= maxPages {
			return false, fmt.Errorf("more than %d pages of labels", maxPages)
		}
		ls, resp, err := rest.Issues.ListLabelsByIssue(ctx, owner, name, number, opts)
		if err != nil {
			return false, err
		}
		for _, l := range ls {
			if lang.SameLabel(l.GetName(), label) {
				return true, nil
			}
		}
		if resp.NextPage == 0 {
			return false, nil
		}
		opts.Page = resp.NextPage
	}
}

// pathSegment escapes s as one segment of a URL path. Besides url.PathEscape's escapes, the
// dot segments "." and ".." are spelled %2E and %2E%2E: as they are, a URL parser resolves
// them (".../labels/." is ".../labels", which removes every label of the issue).
func pathSegment(s string) string {
	if s != "" && strings.Trim(s, ".") == "" {
		return strings.Repeat("%2E", len(s))
	}
	return url.PathEscape(s)
}

// CreateComment posts a comment and returns its id.
// https://docs.github.com/en/rest/issues/comments#create-an-issue-comment
func (c *Client) CreateComment(ctx context.Context, number int, body string) (int64, error) {
	cm, _, err := c.rest.Issues.CreateComment(ctx, c.Owner, c.Repo, number, &github.IssueComment{Body: &body})
	if err != nil {
		return 0, fmt.Errorf("commenting on %s/%s#%d: %w", c.Owner, c.Repo, number, err)
	}
	return cm.GetID(), nil
}

// UpdateComment replaces the body of comment id.
// https://docs.github.com/en/rest/issues/comments#update-an-issue-comment
func (c *Client) UpdateComment(ctx context.Context, id int64, body string) error {
	if _, _, err := c.rest.Issues.EditComment(ctx, c.Owner, c.Repo, id, &github.IssueComment{Body: &body}); err != nil {
		return fmt.Errorf("updating comment %d in %s/%s: %w", id, c.Owner, c.Repo, err)
	}
	return nil
}

// describe turns GitHub's refusal into a sentence for the PR comment.
func describe(kind model.EffectKind, err error) string {
	what := map[model.EffectKind]string{
		model.EffectMerge:       "merge",
		model.EffectAddLabel:    "adding labels",
		model.EffectRemoveLabel: "removing labels",
		model.EffectComment:     "comment",
	}[kind]
	if what == "" {
		what = string(kind)
	}
	// GitHub's words, without go-github's note of the reset against the runner's clock.
	var rl *github.RateLimitError
	if errors.As(err, &rl) && rl.Response != nil {
		return fmt.Sprintf("%s refused (%d): %s", what, rl.Response.StatusCode, rl.Message)
	}
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		if why := workflowsPermission(er.Message); why != "" {
			return fmt.Sprintf("%s refused (%d): %s", what, er.Response.StatusCode, why)
		}
		if unanswered(err) {
			return fmt.Sprintf("%s: GitHub answered %d (%s)", what, er.Response.StatusCode, er.Message)
		}
		return fmt.Sprintf("%s refused (%d): %s", what, er.Response.StatusCode, er.Message)
	}
	var te *TimeoutError
	if errors.As(err, &te) {
		return fmt.Sprintf("%s: %v", what, te)
	}
	return err.Error()
}

// permanent reports whether trying again cannot help: the request itself is wrong
// (422) or the token may not do it (403 without a rate limit). A 405 (not mergeable
// now), 409 (head moved), rate limits and 5xx may pass on a later event.
func permanent(err error) bool {
	if IsRateLimit(err) {
		return false
	}
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode == http.StatusUnprocessableEntity || er.Response.StatusCode == http.StatusForbidden
	}
	var rr *rebaseRefusal
	return errors.As(err, &rr)
}
