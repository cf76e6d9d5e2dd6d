package load

import (
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// chatOpsPermissions are the repository permissions `settings.chatops.permission` may name.
var chatOpsPermissions = []string{"read", "triage", "write", "maintain", "admin"}

// defaultSettings are the settings of a config that does not say otherwise.
func defaultSettings() lang.Settings {
	return lang.Settings{MaxNesting: lang.DefaultMaxNesting, StateBranch: lang.DefaultStateBranch, ChatOpsPermission: "write"}
}

// settings loads the top-level `settings:` into l.cfg.Settings.
func (l *loader) settings(e entry) {
	s := &l.cfg.Settings
	s.Pos = l.pos(e.key)
	f := l.fields(e.val, "settings", section{
		where: `"settings"`,
		known: []string{"max_nesting", "state_branch", "allow_commands", "webhooks", "chatops", "approvals", "custom_gates", "status_check"},
	})
	if v, ok := f["max_nesting"]; ok {
		if n, ok := l.integer(v, 1); ok {
			s.MaxNesting = n
		}
	}
	if v, ok := f["state_branch"]; ok {
		if b, ok := l.str(v); ok {
			if validBranch(b) {
				s.StateBranch = b
			} else {
				l.errorf(v.val, kindValue, "%q must be a branch name (no spaces, \"..\", \"~\", \"^\", \":\" or \"\\\\\"), not %q", "state_branch", b)
			}
		}
	}
	if v, ok := f["status_check"]; ok {
		s.StatusCheck, _ = l.boolean(v)
	}
	if v, ok := f["allow_commands"]; ok {
		s.AllowCommand, _ = l.boolean(v)
	}
	if v, ok := f["webhooks"]; ok {
		wf := l.fields(v.val, "webhooks", section{where: `"settings.webhooks"`, known: []string{"allow", "allow_private"}})
		if a, ok := wf["allow_private"]; ok {
			s.WebhookAllowPrivate, _ = l.boolean(a)
		}
		if a, ok := wf["allow"]; ok {
			hosts, _ := l.strs(a)
			for _, h := range hosts {
				if h == "" || strings.ContainsAny(h, "/ :@") {
					l.errorf(a.val, kindValue, "hosts in %q must be host names such as %q, not %q", "allow", "api.example.com", h)
					continue
				}
				s.WebhookHosts = append(s.WebhookHosts, strings.ToLower(h))
			}
		}
	}
	if v, ok := f["custom_gates"]; ok {
		l.customGates(v)
	}
	if v, ok := f["approvals"]; ok {
		af := l.fields(v.val, "approvals", section{where: `"settings.approvals"`, known: []string{"allow_contributors"}})
		if a, ok := af["allow_contributors"]; ok {
			s.AllowContributors, _ = l.boolean(a)
		}
	}
	if v, ok := f["chatops"]; ok {
		cf := l.fields(v.val, "chatops", section{where: `"settings.chatops"`, known: []string{"permission", "from"}})
		if p, ok := cf["permission"]; ok {
			if perm, ok := l.enum(p, chatOpsPermissions); ok {
				s.ChatOpsPermission = perm
			}
		}
		if fr, ok := cf["from"]; ok {
			s.ChatOpsFrom, _ = l.strs(fr)
			s.ChatOpsFromPos = l.pos(fr.val)
		}
	}
}

// validBranch reports whether b can name a git branch.
func validBranch(b string) bool {
	if b == "" || strings.HasPrefix(b, "/") || strings.HasSuffix(b, "/") || strings.HasSuffix(b, ".lock") ||
		strings.HasPrefix(b, "-") || strings.Contains(b, "..") || strings.Contains(b, "//") || strings.Contains(b, "@{") {
		return false
	}
	return !strings.ContainsAny(b, " \t\n~^:?*[\\")
}

// nonEmpty reports an empty string in list (the value of e) and returns the rest.
func (l *loader) nonEmpty(e entry, list []string) []string {
	out := list[:0:0]
	for _, s := range list {
		if s == "" {
			l.errorf(e.val, kindValue, "%q must not hold an empty name", e.key.Value)
			continue
		}
		out = append(out, s)
	}
	return out
}
