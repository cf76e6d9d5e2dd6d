package lang

import (
	"net/url"
	"strings"
)

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
