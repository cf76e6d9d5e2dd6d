package engine

import (
	"net/url"
	"strings"
)

// checkWebhooks reports webhook stages whose URL calls a host that
// settings.webhooks.allow does not list, and those whose host is not a constant (a
// template in the scheme or host could send the request anywhere). An entry of the
// allow list matches the host exactly (case-insensitively, with or without the
// port), and "*.example.com" matches any subdomain of example.com.
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
			host, ok := webhookHost(u.Src)
			switch {
			case !ok:
				f.errorf(pos, kindWebhook, "webhook url must have a constant host; move the templates after the host")
			case host == "":
				f.errorf(pos, kindWebhook, "webhook url %q has no host; write an absolute https:// url", u.Src)
			case len(cfg.Settings.WebhookHosts) == 0:
				f.errorf(pos, kindWebhook, "webhook host %q is not allowed; list it under settings.webhooks.allow", host)
			case !hostAllowed(host, cfg.Settings.WebhookHosts):
				f.errorf(pos, kindWebhook, "webhook host %q is not allowed; settings.webhooks.allow lists %s",
					host, quoteList(cfg.Settings.WebhookHosts))
			}
		})
	}
	return f.result()
}

// webhookHost returns the host of a webhook url as written (port included), and
// false when a template lies in its scheme or host.
func webhookHost(src string) (string, bool) {
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
