package ghapi

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/shurcooL/githubv4"
)

// Comments are read so that the cost of an event does not grow with the comments on a
// pull request. The facts query reads the oldest 100 (where the state comment is: the
// action posts it on the first event that concerns the subject) and the newest 100.
// The comments between, when there are any, are read newest first only back to where the
// state says it has read (State.CommentsRead: every comment up to it was evaluated by an
// event whose state was saved) and to the oldest that a waiting stage still counts (a
// `wait_for: comment` stage of a count above one counts the comments since it was
// entered): ReadComments.
// A state comment that lies between and is older than that is read by its node id, which
// the state remembers (State.StateComment).

// gap is what lies between the two pages of comments the facts query read.
type gap struct {
	before string      // the cursor of the oldest comment read newest first
	oldest commentNode // that comment
	floor  int64       // the newest comment of the oldest page: no comment to read is older
}

// commentsGap is the gap between pr's two pages of comments; nil when they meet.
func commentsGap(pr *prFields) *gap {
	first, recent := pr.Comments, pr.Recent
	if !first.PageInfo.HasNextPage || !recent.PageInfo.HasPreviousPage || len(first.Nodes) == 0 || len(recent.Nodes) == 0 {
		return nil
	}
	floor := int64(first.Nodes[len(first.Nodes)-1].FullDatabaseId)
	if int64(recent.Nodes[0].FullDatabaseId) <= floor {
		return nil // they overlap
	}
	return &gap{before: recent.PageInfo.StartCursor, oldest: recent.Nodes[0], floor: floor}
}

// CommentsNeed is how far back the comments of a pull request must be read.
type CommentsNeed struct {
	// Since is the newest comment the state has read; 0 reads every comment.
	Since int64
	// From is when the oldest waiting `wait_for: comment` stage of a count above one was
	// entered: comments created after it are read whatever their id. Zero for none.
	From time.Time
	// StateComment is the node id of the state comment, when the state names one that
	// was not read; "" for none.
	StateComment string
}

// CommentsRead is what ReadComments read: pages of comments between the two the facts
// query read, and the state comment by its node id.
type CommentsRead struct {
	Pages        int
	StateComment bool
}

// Any reports whether anything was read.
func (r CommentsRead) Any() bool { return r.Pages > 0 || r.StateComment }

// ReadComments reads into s the comments of pull request number that need says were
// not read yet: nothing when the facts query read enough.
func (c *Client) ReadComments(ctx context.Context, s *Snapshot, number int, need CommentsNeed) (CommentsRead, error) {
	var read CommentsRead
	for g := s.gap; g != nil && !enough(g.oldest, need); {
		var q commentsPage
		vars := map[string]any{"owner": githubv4.String(c.Owner), "name": githubv4.String(c.Repo),
			"number": githubv4.Int(number), "cursor": githubv4.String(g.before)}
		read.Pages++
		if err := c.gql.Query(ctx, &q, vars); err != nil {
			return read, fmt.Errorf("reading older comments of %s/%s#%d: %w", c.Owner, c.Repo, number, err)
		}
		if q.Repository.PullRequest == nil {
			break
		}
		page := q.Repository.PullRequest.Comments
		var keep []commentNode
		for _, n := range page.Nodes {
			if int64(n.FullDatabaseId) > g.floor {
				keep = append(keep, n)
			}
		}
		s.addComments(keep)
		if len(page.Nodes) == 0 || !page.PageInfo.HasPreviousPage || len(keep) < len(page.Nodes) {
			break
		}
		g = &gap{before: page.PageInfo.StartCursor, oldest: page.Nodes[0], floor: g.floor}
	}
	s.gap = nil
	if need.StateComment == "" || s.hasNode(need.StateComment) {
		return read, nil
	}
	var q struct {
		Node *struct {
			Comment commentNode `graphql:"... on IssueComment"`
		} `graphql:"node(id: $id)"`
	}
	read.StateComment = true
	if err := c.gql.Query(ctx, &q, map[string]any{"id": githubv4.ID(need.StateComment)}); err != nil {
		return read, fmt.Errorf("reading the state comment of %s/%s#%d: %w", c.Owner, c.Repo, number, err)
	}
	if q.Node != nil && q.Node.Comment.Id == need.StateComment {
		s.addComments([]commentNode{q.Node.Comment})
	}
	return read, nil
}

// enough reports whether the comments older than n need not be read: n is not newer
// than what the state has read, nor created after a waiting stage was entered.
func enough(n commentNode, need CommentsNeed) bool {
	if need.Since == 0 || int64(n.FullDatabaseId) > need.Since {
		return false
	}
	return need.From.IsZero() || !n.CreatedAt.After(need.From)
}

// CommentGap reports whether comments lie between the two pages the facts query read.
func (s *Snapshot) CommentGap() bool { return s.gap != nil }

// NodeID is the node id of comment id, if it was read; "".
func (s *Snapshot) NodeID(id int64) string { return s.commentNodes[id] }

// NewestComment is the id of the newest comment read; 0 when none.
func (s *Snapshot) NewestComment() int64 {
	if n := len(s.Comments); n > 0 {
		return s.Comments[n-1].ID
	}
	return 0
}

func (s *Snapshot) hasNode(id string) bool {
	for _, n := range s.commentNodes {
		if n == id {
			return true
		}
	}
	return false
}

// addComments adds comments read to s (its Comments, the facts' comments and the
// effects the action's own comments record), oldest first, each once.
func (s *Snapshot) addComments(nodes []commentNode) {
	if s.commentNodes == nil {
		s.commentNodes = map[int64]string{}
	}
	for _, n := range nodes {
		id := int64(n.FullDatabaseId)
		if _, seen := s.commentNodes[id]; seen {
			continue
		}
		s.commentNodes[id] = n.Id
		c := stateComment(n)
		s.Comments = append(s.Comments, c)
		if c.ViewerDidAuthor && !c.EditedByOther() { // only the action's own word counts
			s.Facts.PR.Posted = append(s.Facts.PR.Posted, model.PostedEffects(n.Body)...)
		}
		s.Facts.PR.Comments = append(s.Facts.PR.Comments, issueComment(n))
	}
	sort.SliceStable(s.Comments, func(i, j int) bool { return s.Comments[i].ID < s.Comments[j].ID })
	cs := s.Facts.PR.Comments
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].ID < cs[j].ID })
}
