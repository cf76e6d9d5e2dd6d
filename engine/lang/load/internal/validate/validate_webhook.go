package validate

import "github.com/org/pipeline-action/engine/lang"

// checkWebhooks reports webhook stages whose host is not a constant (a template in the
// scheme or host could send the request anywhere: the data of a pull request would
// choose it), and, when settings.webhooks.allow is given, those whose URL calls a host it
// does not list. An entry of the allow list matches the host exactly
// (case-insensitively, with or without the port), and "*.example.com" matches any
// subdomain of example.com. Which addresses a host may resolve to is checked when the
// call is made (the shell's address guard).
func checkWebhooks(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	var f findings
	for _, p := range cfg.Pipelines {
		eachStage(p, func(s, _ *lang.Stage) {
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
			host, ok := lang.ParseWebhookHost(u.Src)
			switch {
			case !ok:
				f.errorf(pos, kindWebhook, "webhook url must have a constant host; move the templates after the host")
			case host == "":
				f.errorf(pos, kindWebhook, "webhook url %q has no host; write an absolute https:// url", u.Src)
			case len(cfg.Settings.WebhookHosts) == 0:
			case !lang.WebhookHostAllowed(host, cfg.Settings.WebhookHosts):
				f.errorf(pos, kindWebhook, "webhook host %q is not allowed; settings.webhooks.allow lists %s",
					host, lang.QuoteList(cfg.Settings.WebhookHosts))
			}
		})
	}
	return f.result()
}
