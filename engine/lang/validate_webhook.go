package lang

import (
	"net/url"
	"strings"
)

// checkWebhooks reports webhook stages whose host is not a constant (a template in the
// scheme or host could send the request anywhere: the data of a pull request would
// choose it), and, when settings.webhooks.allow is given, those whose URL calls a host it
// does not list. An entry of the allow list matches the host exactly
// (case-insensitively, with or without the port), and "*.example.com" matches any
// subdomain of example.com. Which addresses a host may resolve to is checked when the
// call is made (the shell's address guard).
func checkWebhooks(cfg *Config) (errs, warnings ErrorList) {
	var f findings
	for _, p := range cfg.Pipelines {
		eachStage(p, func(s, _ *Stage) {
			if s.Request == nil || s.Request.URL == nil {
				return
			}
			u := s.Request.URL
			pos := u.Pos
			if pos.Line == 0 {
				pos = s.Request.Pos
			}
			if pos.Line == 0 {
				pos = s.Pos
			}
			host, ok := ParseWebhookHost(u.Src)
			switch {
			case !ok:
				f.errorf(pos, kindWebhook, "webhook url must have a constant host; move the templates after the host")
			case host == "":
				f.errorf(pos, kindWebhook, "webhook url %q has no host; write an absolute https:// url", u.Src)
			case len(cfg.Settings.WebhookHosts) == 0:
			case !hostAllowed(host, cfg.Settings.WebhookHosts):
				f.errorf(pos, kindWebhook, "webhook host %q is not allowed; settings.webhooks.allow lists %s",
					host, quoteList(cfg.Settings.WebhookHosts))
			}
		})
	}
	return f.result()
}

// ParseWebhookHost returns the host of a webhook url as written (port included), and
// false when a template lies in its scheme or host.
func ParseWebhookHost(src string) (string, bool) {
	src = strings.TrimSpace(src)
	authority := src
	if i := strings.Index(src, "://"); i >= 0 {
		if strings.Contains(src[:i], "{{") {
			return "", false
		}
		authority = src[i+3:]
	} else if strings.Contains(src, "{{") {
		return "", false // "{{ context.url }}": scheme and host unknown
	}
	if i := strings.IndexAny(authority, "/?#"); i >= 0 {
		authority = authority[:i]
	}
	if strings.Contains(authority, "{{") || strings.Contains(authority, "}}") {
		return "", false
	}
	if !strings.Contains(src, "://") {
		return "", true
	}
	u, err := url.Parse(src[:strings.Index(src, "://")+3] + authority)
	if err != nil {
		return "", true
	}
	return strings.ToLower(u.Host), true
}

// WebhookHost returns the host (and port) a webhook url names, as written, lower case; ""
// when a template lies in its scheme or host.
func WebhookHost(src string) string {
	host, ok := ParseWebhookHost(src)
	if !ok {
		return ""
	}
	return host
}

// WebhookHostAllowed reports whether host (maybe with a port) matches an entry of allow
// (settings.webhooks.allow); an empty list allows every host.
func WebhookHostAllowed(host string, allow []string) bool {
	return len(allow) == 0 || hostAllowed(strings.ToLower(host), allow)
}

// hostAllowed reports whether host (maybe with a port) matches an entry of allow.
func hostAllowed(host string, allow []string) bool {
	name := host
	if u, err := url.Parse("//" + host); err == nil {
		name = u.Hostname()
	}
	for _, a := range allow {
		a = strings.ToLower(strings.TrimSpace(a))
		switch {
		case a == host || a == name:
			return true
		case strings.HasPrefix(a, "*.") && strings.HasSuffix(name, a[1:]) && len(name) > len(a)-1:
			return true
		}
	}
	return false
}
