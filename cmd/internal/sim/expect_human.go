package sim

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// checkReminders checks `reminders: {N: count}`: the comments of the action on subject N
// that carry the marker of a human stage's reminder effect (<run>/<stage>/<attempt>/reminder-<k>).
func (s *simulation) checkReminders(report func(bool, string, string, string), want map[int]int) {
	for _, n := range sortedInts(want) {
		count := 0
		s.try(func() {
			for _, c := range s.fake.Comments(s.sc.Repo, n) {
				if c.Author != ghfake.BotLogin {
					continue
				}
				for _, key := range model.PostedEffects(c.Body) {
					if i := strings.LastIndexByte(key, '/'); i >= 0 && strings.HasPrefix(key[i+1:], "reminder-") {
						count++
					}
				}
			}
		})
		report(count == want[n], fmt.Sprintf("#%d reminders", n), fmt.Sprint(want[n]), fmt.Sprint(count))
	}
}
