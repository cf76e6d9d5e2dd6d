package ghapi

import (
	"context"
	"fmt"

	"github.com/shurcooL/githubv4"

	"github.com/org/pipeline-action/engine/model"
)

// GitHub's merge queue. A base branch that requires it refuses the merge (405 "Changes must
// be made through the merge queue"); the merge is then asked of the queue: the pull request
// is enqueued at the head the gates hold on (expectedHeadOid), and GitHub merges it when the
// queue's required checks pass on its merge group.

// prNodeID is the GraphQL id of pull request number of owner/name.
func prNodeID(ctx context.Context, gql *githubv4.Client, owner, name string, number int) (githubv4.ID, error) {
	var q struct {
		Repository struct {
			PullRequest struct{ Id githubv4.ID } `graphql:"pullRequest(number: $n)"`
		} `graphql:"repository(owner: $owner, name: $name)"`
	}
	err := gql.Query(ctx, &q, map[string]any{"owner": githubv4.String(owner), "name": githubv4.String(name), "n": githubv4.Int(number)})
	if err != nil {
		return nil, fmt.Errorf("reading the id of %s/%s#%d: %w", owner, name, number, err)
	}
	return q.Repository.PullRequest.Id, nil
}

// enqueue puts the pull request of e in its base's merge queue at e.SHA.
// https://docs.github.com/graphql/reference/mutations#enqueuepullrequest
func (c *Client) enqueue(ctx context.Context, e model.Effect) model.Outcome {
	id, err := prNodeID(ctx, c.gql, c.Owner, c.Repo, e.Number)
	if err == nil {
		var m struct {
			EnqueuePullRequest struct {
				MergeQueueEntry struct{ Position int }
			} `graphql:"enqueuePullRequest(input: $input)"`
		}
		head := githubv4.GitObjectID(e.SHA)
		err = c.gql.Mutate(ctx, &m, githubv4.EnqueuePullRequestInput{PullRequestID: id, ExpectedHeadOid: &head}, nil)
	}
	if err != nil {
		err = fmt.Errorf("putting %s/%s#%d in the merge queue at %s: %w", c.Owner, c.Repo, e.Number, e.SHA, err)
		return model.Outcome{Key: e.Key, Err: describe(model.EffectMerge, err), Unknown: unanswered(err), RetryAt: RetryAt(err, c.now())}
	}
	return model.Outcome{Key: e.Key, Queued: true}
}

// dequeue takes pull request number of owner/name out of its base's merge queue.
// https://docs.github.com/graphql/reference/mutations#dequeuepullrequest
func dequeue(ctx context.Context, gql *githubv4.Client, owner, name string, number int) error {
	id, err := prNodeID(ctx, gql, owner, name, number)
	if err != nil {
		return err
	}
	var m struct {
		DequeuePullRequest struct {
			ClientMutationID string `graphql:"clientMutationId"`
		} `graphql:"dequeuePullRequest(input: $input)"`
	}
	if err := gql.Mutate(ctx, &m, githubv4.DequeuePullRequestInput{ID: id}, nil); err != nil {
		return fmt.Errorf("taking %s/%s#%d out of the merge queue: %w", owner, name, number, err)
	}
	return nil
}
