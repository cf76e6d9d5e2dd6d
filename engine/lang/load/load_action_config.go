package load

import (
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// actionConfig fills out from the config keys f of action a; c is the config itself.
func (sl actionLoader) actionConfig(c entry, f map[string]entry, a string, out *lang.ActionConfig, where string) {
	switch a {
	case lang.ActionMergePR:
		sl.mergeConfig(f, out)
	case lang.ActionAddLabel, lang.ActionRemoveLabel:
		sl.labelConfig(f, out, where)
	case lang.ActionComment:
		sl.commentConfig(f, out)
	case lang.ActionCloseIssue:
		if e, ok := f["issue"]; ok {
			out.Issue = sl.template(e)
		}
	case lang.ActionCreateIssue:
		if e, ok := f["title"]; ok {
			out.Title = sl.template(e)
		}
		if e, ok := f["body"]; ok {
			out.Body, _ = sl.str(e)
			out.BodyTemplate = sl.template(e)
		}
		if e, ok := f["labels"]; ok {
			out.Labels = sl.labelList(e)
		}
	case lang.ActionLabel:
		if e, ok := f["add"]; ok {
			out.Labels = sl.labelList(e)
		}
		if e, ok := f["remove"]; ok {
			out.Remove = sl.labelList(e)
		}
	case lang.ActionSetVariable, lang.ActionSetShared:
		sl.variableConfig(c, f, out, where)
	case lang.ActionNotify:
		if e, ok := f["target"]; ok {
			out.Target = sl.template(e)
		}
		if e, ok := f["message"]; ok {
			out.Message = sl.template(e)
		}
	case lang.ActionRequestReviewers:
		sl.reviewersConfig(f, out)
	case lang.ActionAssign:
		sl.assignConfig(f, out)
	}
	if e, ok := f["update_method"]; ok {
		out.UpdateMethod, _ = sl.enum(e, updateMethods)
	}
	sl.requireConfig(c, f, a, where)
}

// mergeConfig fills out from the config keys f of a merge_pr action.
func (sl actionLoader) mergeConfig(f map[string]entry, out *lang.ActionConfig) {
	if e, ok := f["method"]; ok {
		if m, ok := sl.enum(e, mergeMethods); ok {
			out.Method = m
		}
	}
	if e, ok := f["delete_branch"]; ok {
		out.DeleteBranch, _ = sl.boolean(e)
	}
	if e, ok := f["pr_number"]; ok {
		out.PR = sl.template(e)
	}
	if e, ok := f["when_behind"]; ok {
		if w, ok := sl.enum(e, []string{lang.WhenBehindUpdate, lang.WhenBehindEscalate}); ok {
			out.WhenBehind = w
		}
	}
	if e, ok := f["commit_title"]; ok {
		out.CommitTitle = sl.template(e)
	}
	if e, ok := f["commit_message"]; ok {
		out.CommitMessage = sl.template(e)
	}
}

// labelConfig fills out from the config keys f of an add_label or remove_label action,
// which names its labels with either "label" or "labels".
func (sl actionLoader) labelConfig(f map[string]entry, out *lang.ActionConfig, where string) {
	one, hasOne := f["label"]
	many, hasMany := f["labels"]
	switch {
	case hasOne && hasMany:
		sl.errorf(many.key, kindKey, "use either %q or %q in %s, not both", "label", "labels", where)
	case hasOne:
		if l, ok := sl.str(one); ok {
			sl.literalLabels(one)
			out.Labels = sl.nonEmpty(one, []string{l})
		}
	case hasMany:
		out.Labels = sl.labelList(many)
	}
}

// commentConfig fills out from the config keys f of a comment action.
func (sl actionLoader) commentConfig(f map[string]entry, out *lang.ActionConfig) {
	if e, ok := f["body"]; ok {
		if body, ok := sl.str(e); ok {
			if strings.TrimSpace(body) == "" {
				sl.errorf(e.val, kindValue, "%q must not be empty", "body")
			}
			out.Body = body
			if strings.Contains(body, "{{") {
				out.BodyTemplate = sl.template(e)
			}
		}
	}
	if e, ok := f["target"]; ok {
		out.Target = sl.template(e)
	}
}

// reviewersConfig fills out from the config keys f of a request_reviewers action.
func (sl actionLoader) reviewersConfig(f map[string]entry, out *lang.ActionConfig) {
	if e, ok := f["reviewers"]; ok {
		rs, _ := sl.strs(e)
		out.Reviewers = sl.nonEmpty(e, rs)
	}
	if e, ok := f["teams"]; ok {
		ts, _ := sl.strs(e)
		out.Teams = sl.nonEmpty(e, ts)
	}
	if e, ok := f["group"]; ok {
		out.Group, _ = sl.str(e)
	}
}

// assignConfig fills out from the config keys f of an assign action.
func (sl actionLoader) assignConfig(f map[string]entry, out *lang.ActionConfig) {
	if e, ok := f["assignees"]; ok {
		as, _ := sl.strs(e)
		out.Assignees = sl.nonEmpty(e, as)
	}
	if e, ok := f["group"]; ok {
		out.Group, _ = sl.str(e)
	}
}

// requireConfig reports config c of action a when it has none of the keys a needs.
func (sl actionLoader) requireConfig(c entry, f map[string]entry, a, where string) {
	needs := configNeeds[a]
	if len(needs) == 0 {
		return
	}
	for _, k := range needs {
		if _, ok := f[k]; ok {
			return
		}
	}
	if len(needs) == 1 {
		sl.errorf(c.val, kindKey, "missing required key %q in %s", needs[0], where)
	} else {
		sl.errorf(c.val, kindKey, "missing required key %s in %s; action %q needs one", requiredConfig(a), where, a)
	}
}
