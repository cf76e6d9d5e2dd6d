package people

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Agents are not people. An agent may act on GitHub as a machine user — a plain account
// with write access, which GitHub types as a User, not a Bot — and its reviews, comments,
// labels and dismissals would then pass for a person's. The logins the config gives its
// agents are never a person's: their reviews and comments are taken as an app's (IsBot),
// and authority.Rules.Allowed and MayCommandAs refuse them by Facts.IsAgent.

// AgentLogins lists the logins cfg's agents act as: their `login`, and the assignee of an
// assign dispatch.
func AgentLogins(cfg *lang.Config) []string {
	if cfg == nil {
		return nil
	}
	var out []string
	for _, a := range cfg.Agents {
		for _, l := range []string{a.Login, a.Assignee} {
			if l != "" && !model.HasLogin(out, l) {
				out = append(out, l)
			}
		}
	}
	return out
}

// MarkAgents returns f with Agents set to cfg's agents' logins and the reviews and comments
// they wrote marked as an app's, on the subject and on every other pull request read. The
// facts passed in are not changed; f itself is returned when cfg names no agent login.
func MarkAgents(cfg *lang.Config, f *model.Facts) *model.Facts {
	logins := AgentLogins(cfg)
	if f == nil || len(logins) == 0 {
		return f
	}
	out := *f
	out.Agents = logins
	out.PR = markPR(&out, f.PR)
	if f.PRs != nil {
		out.PRs = make(map[int]*model.PullRequest, len(f.PRs))
		for n, pr := range f.PRs {
			out.PRs[n] = markPR(&out, pr)
		}
	}
	if f.Others != nil {
		out.Others = make(map[string]*model.PullRequest, len(f.Others))
		for k, pr := range f.Others {
			out.Others[k] = markPR(&out, pr)
		}
	}
	if f.Issue != nil {
		is := *f.Issue
		is.Comments = markComments(&out, is.Comments)
		out.Issue = &is
	}
	return &out
}

// markPR is a copy of pr whose agents' reviews and comments are marked (nil stays nil).
func markPR(f *model.Facts, pr *model.PullRequest) *model.PullRequest {
	if pr == nil {
		return nil
	}
	cp := *pr
	if pr.Reviews != nil {
		cp.Reviews = make([]model.Review, len(pr.Reviews))
		for i, r := range pr.Reviews {
			r.IsBot = r.IsBot || f.IsAgent(r.Author)
			cp.Reviews[i] = r
		}
	}
	cp.Comments = markComments(f, pr.Comments)
	return &cp
}

func markComments(f *model.Facts, cs []model.IssueComment) []model.IssueComment {
	if cs == nil {
		return nil
	}
	out := make([]model.IssueComment, len(cs))
	for i, c := range cs {
		c.IsBot = c.IsBot || f.IsAgent(c.Author)
		out[i] = c
	}
	return out
}
