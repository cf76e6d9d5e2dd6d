package sim

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// deliverOn reads a step's deliver field: delivered unless it says false.
func deliverOn(d *bool) bool { return d == nil || *d }

// applyOpenPR opens a pull request (open_pr).
func (s *simulation) applyOpenPR(v *openPR) (events []ghfake.Event, label string, deliver bool, err error) {
	f := s.fake
	repo, here, err := s.stepRepo(v.Repo)
	if err != nil {
		return nil, "", false, err
	}
	if v.MaintainerCanModify != nil && v.Fork == "" {
		return nil, "", false, errors.New("open_pr: maintainer_can_modify is a fork's pull request's (give fork)")
	}
	noEdits := v.MaintainerCanModify != nil && !*v.MaintainerCanModify
	ev := f.OpenPR(repo, ghfake.PROptions{Number: v.Number, Author: v.Author, Base: v.Base, Head: v.Head,
		Title: v.Title, Body: v.Body, Files: v.Files, Labels: v.Labels, Draft: v.Draft, Fork: v.Fork, NoMaintainerEdits: noEdits})
	label = fmt.Sprintf("open_pr #%d by %s into %s", v.Number, v.Author, cmp.Or(v.Base, s.sc.DefaultBranch))
	if v.Fork != "" {
		label += fmt.Sprintf(" from %s's fork", v.Fork)
	}
	if v.Head != "" {
		label += " (branch " + v.Head + ")"
	}
	return []ghfake.Event{ev}, label + elsewhere(repo, here), deliverOn(v.Deliver) && here, nil
}

// applyPRStep plays the steps on a pull request that share prStep: dismiss_review, push,
// update_branch, close_pr and conflict.
func (s *simulation) applyPRStep(st step, v *prStep) (events []ghfake.Event, label string, deliver bool, err error) {
	repo, f := s.sc.Repo, s.fake
	if v.Repo != "" && st.Kind != "conflict" {
		return nil, "", false, fmt.Errorf("%s takes no repo (open_pr, review, check and conflict do)", st.Kind)
	}
	if len(v.Files) > 0 && st.Kind != "push" {
		return nil, "", false, fmt.Errorf("%s takes no files (push does)", st.Kind)
	}
	if v.By != "" && st.Kind != "dismiss_review" {
		return nil, "", false, fmt.Errorf("%s takes no by (dismiss_review does)", st.Kind)
	}
	switch st.Kind {
	case "dismiss_review":
		label := fmt.Sprintf("dismiss_review #%d of %s", v.PR, v.User)
		if v.By != "" {
			label += " by " + v.By
		}
		return []ghfake.Event{f.DismissReviewAs(repo, v.PR, v.User, v.By)}, label, deliverOn(v.Deliver), nil
	case "push":
		if len(v.Files) == 0 {
			return []ghfake.Event{f.PushAs(repo, v.PR, nil, v.User)}, fmt.Sprintf("push to #%d", v.PR) + by(v.User), deliverOn(v.Deliver), nil
		}
		files := map[string]string{}
		var paths []string
		for p, local := range v.Files {
			src, err := os.ReadFile(s.sc.Rel(local))
			if err != nil {
				return nil, "", false, fmt.Errorf("push: %w", err)
			}
			files[p] = string(src)
			paths = append(paths, p)
		}
		sort.Strings(paths)
		return []ghfake.Event{f.PushAs(repo, v.PR, files, v.User)}, fmt.Sprintf("push to #%d writing %s", v.PR, strings.Join(paths, ", ")) + by(v.User), deliverOn(v.Deliver), nil
	case "update_branch":
		if v.User == "" {
			return nil, "", false, errors.New("update_branch needs a user (who presses GitHub's \"Update branch\")")
		}
		if v.User == ghfake.BotLogin {
			return s.updateByToken(repo, v)
		}
		return []ghfake.Event{f.UpdateBranch(repo, v.PR, v.User)}, fmt.Sprintf("update_branch #%d by %s", v.PR, v.User), deliverOn(v.Deliver), nil
	case "close_pr":
		return s.closePR(repo, v, deliverOn(v.Deliver))
	case "ready_for_review", "convert_to_draft":
		ev, err := f.SetDraft(repo, v.PR, st.Kind == "convert_to_draft", v.User)
		if err != nil {
			return nil, "", false, fmt.Errorf("%s: %w", st.Kind, err)
		}
		return []ghfake.Event{ev}, fmt.Sprintf("%s #%d", st.Kind, v.PR) + by(v.User), deliverOn(v.Deliver), nil
	case "conflict":
		repo, here, err := s.stepRepo(v.Repo)
		if err != nil {
			return nil, "", false, err
		}
		f.SetMergeable(repo, v.PR, "conflicting")
		return nil, fmt.Sprintf("conflict on #%d (GitHub sends no event)", v.PR) + elsewhere(repo, here), true, nil
	}
	return nil, "", false, fmt.Errorf("not supported yet: step %q", "prStep")
}

// applyLabel adds and removes labels (label).
func (s *simulation) applyLabel(v *labelStep) (events []ghfake.Event, label string, deliver bool, err error) {
	repo, f := s.sc.Repo, s.fake
	if err := issueAlias(&v.PR, v.Issue, "label"); err != nil {
		return nil, "", false, err
	}
	for _, l := range v.Add {
		events = append(events, f.LabelAs(repo, v.PR, l, true, v.User))
	}
	for _, l := range v.Remove {
		events = append(events, f.LabelAs(repo, v.PR, l, false, v.User))
	}
	label = fmt.Sprintf("label #%d +%v -%v", v.PR, v.Add, v.Remove)
	if v.User != "" {
		label += " by " + v.User
	}
	if v.User == ghfake.BotLogin {
		return events, label + " (another workflow's GITHUB_TOKEN: GitHub starts no workflow)", false, nil
	}
	return events, label, deliverOn(v.Deliver), nil
}

// applyCheck completes a check run or a job of a workflow (check).
func (s *simulation) applyCheck(v *checkStep) (events []ghfake.Event, label string, deliver bool, err error) {
	repo, f := s.sc.Repo, s.fake
	repo, here, err := s.stepRepo(v.Repo)
	if err != nil {
		return nil, "", false, err
	}
	if n := v.MergeGroup; n != 0 {
		// A job on n's merge group (CI on merge_group): the queue merges the groups whose
		// required checks passed, and GitHub sends each one's pull_request.closed.
		if !f.Queued(repo, n) {
			return nil, "", false, fmt.Errorf("check on the merge group of #%d: it is not in a merge queue", n)
		}
		conclusion := cmp.Or(v.Conclusion, "success")
		return f.CompleteGroupCheck(repo, n, cmp.Or(v.Workflow, v.Name), v.Name, conclusion),
			fmt.Sprintf("check %q on the merge group of #%d: %s", v.Name, n, conclusion), deliverOn(v.Deliver), nil
	}
	if err := s.ciCanRun(repo, v); err != nil {
		return nil, "", false, err
	}
	var ev ghfake.Event
	switch {
	case v.Workflow != "" && v.App != "":
		return nil, "", false, errors.New("check takes an app or a workflow (a job of Actions), not both")
	case v.Workflow != "":
		ev = f.CompleteJob(repo, v.PR, v.Workflow, v.Name, cmp.Or(v.Conclusion, "success"))
	default:
		ev = f.CompleteCheck(repo, v.PR, v.Name, cmp.Or(v.Conclusion, "success"), v.App)
	}
	return []ghfake.Event{ev}, fmt.Sprintf("check %q on #%d: %s", v.Name, v.PR, cmp.Or(v.Conclusion, "success")) + elsewhere(repo, here), deliverOn(v.Deliver) && here, nil
}

// applyComment posts a comment, or several (comment).
func (s *simulation) applyComment(v *commentStep) (events []ghfake.Event, label string, deliver bool, err error) {
	repo, f := s.sc.Repo, s.fake
	if err := issueAlias(&v.PR, v.Issue, "comment"); err != nil {
		return nil, "", false, err
	}
	if v.Count != 0 {
		return s.commentFlood(v)
	}
	body := v.Body
	if v.Forge != nil {
		if body != "" {
			return nil, "", false, errors.New("comment takes a body or forge_state, not both")
		}
		if body, err = s.forge(v.PR, v.Forge, f.NextCommentID()); err != nil {
			return nil, "", false, fmt.Errorf("comment: %w", err)
		}
	}
	ev, _ := f.Comment(repo, v.PR, v.User, body)
	if v.User == ghfake.BotLogin {
		return []ghfake.Event{ev}, fmt.Sprintf("comment on #%d by %s (another workflow's GITHUB_TOKEN: GitHub starts no workflow)", v.PR, v.User), false, nil
	}
	return []ghfake.Event{ev}, fmt.Sprintf("comment on #%d by %s", v.PR, v.User), deliverOn(v.Deliver), nil
}

// applyConfig commits a new config to the default branch (change_config).
func (s *simulation) applyConfig(v *configStep) (events []ghfake.Event, label string, deliver bool, err error) {
	repo, f := s.sc.Repo, s.fake
	files, err := scenarioConfig(s.sc.Rel(v.File))
	if err != nil {
		return nil, "", false, fmt.Errorf("change_config: %w", err)
	}
	if err := checkConfig(files); err != nil {
		return nil, "", false, fmt.Errorf("change_config: %w", err)
	}
	kept := map[string]bool{}
	var written []string
	for _, c := range files {
		kept[c.repo] = true
		oid := f.SetFile(repo, s.sc.DefaultBranch, c.repo, string(c.src))
		written = append(written, fmt.Sprintf("%s (blob %.7s)", c.repo, oid))
	}
	for _, c := range s.config {
		if !kept[c.repo] {
			f.DeleteFile(repo, s.sc.DefaultBranch, c.repo)
			written = append(written, c.repo+" (deleted)")
		}
	}
	s.config = files
	return nil, fmt.Sprintf("change_config to %s on %s: %s", v.File, s.sc.DefaultBranch, strings.Join(written, ", ")), false, nil
}

// applyStateBranch deletes or protects the state branch (state_branch).
func (s *simulation) applyStateBranch(v stateBranchStep) (events []ghfake.Event, label string, deliver bool, err error) {
	repo, f := s.sc.Repo, s.fake
	name := s.stateBranch()
	if v == "protect" {
		f.RestrictBranch(repo, name)
		return nil, fmt.Sprintf("state_branch: protect %s (a ruleset restricts its creation and updates; GitHub sends no event)", name), false, nil
	}
	if !f.DeleteBranch(repo, name) {
		return nil, fmt.Sprintf("state_branch: delete %s (there was none)", name), false, nil
	}
	return nil, fmt.Sprintf("state_branch: delete %s (no event: the action does not listen to deletions)", name), false, nil
}

// applyWebhook reads a payload file to deliver as is (webhook).
func (s *simulation) applyWebhook(v *webhookStep) ([]ghfake.Event, string, bool, error) {
	raw, err := os.ReadFile(s.sc.Rel(v.File))
	if err != nil {
		return nil, "", false, err
	}
	return []ghfake.Event{{Name: v.Event, Payload: raw}}, fmt.Sprintf("webhook %s from %s", v.Event, v.File), true, nil
}
