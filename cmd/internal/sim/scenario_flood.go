package sim

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// maxFlood bounds the comments one comment step posts.
const maxFlood = 100000

// commentFlood posts v.Count comments by v.User at once, "{n}" in the body numbered from
// 1, and delivers the last one's event only: the workflow's concurrency group keeps one
// pending run and cancels the others, so the run that does start reads them all.
func (s *simulation) commentFlood(v *commentStep) ([]ghfake.Event, string, bool, error) {
	switch {
	case v.Count < 1 || v.Count > maxFlood:
		return nil, "", false, fmt.Errorf("comment: count must be from 1 to %d, not %d", maxFlood, v.Count)
	case v.Forge != nil:
		return nil, "", false, errors.New("comment: count and forge_state do not go together")
	case v.User == ghfake.BotLogin:
		return nil, "", false, errors.New("comment: count is for comments by people")
	}
	var last ghfake.Event
	for i := 1; i <= v.Count; i++ {
		last, _ = s.fake.Comment(s.sc.Repo, v.PR, v.User, strings.ReplaceAll(v.Body, "{n}", strconv.Itoa(i)))
	}
	label := fmt.Sprintf("%d comments on #%d by %s (the last one's event delivered)", v.Count, v.PR, v.User)
	return []ghfake.Event{last}, label, v.Deliver == nil || *v.Deliver, nil
}
