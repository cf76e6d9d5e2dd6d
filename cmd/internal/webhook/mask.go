package webhook

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"sort"
	"strings"
)

// Masked stands for a secret value in an answer.
const Masked = "***"

// Masker hides the secret values a call sent wherever its answer repeats them. An
// endpoint may echo its request (a debugging endpoint, an error that quotes the
// Authorization header), and the answer is kept in the run's state — the state branch
// and the comment's marker — and quoted by later stages' comments, where anyone who can
// read the pull request would read the secret. Matching ignores case, so an endpoint
// that prints a header in capitals does not slip it through.
type Masker struct {
	re *regexp.Regexp // nil: nothing to mask
}

// NewMasker masks each of secrets (empty ones are ignored).
func NewMasker(secrets []string) *Masker {
	var alts []string
	for _, s := range secrets {
		if s != "" {
			alts = append(alts, regexp.QuoteMeta(s))
		}
	}
	if len(alts) == 0 {
		return &Masker{}
	}
	// The longest first: where one secret contains another, the whole is masked.
	sort.Slice(alts, func(i, j int) bool { return len(alts[i]) > len(alts[j]) })
	return &Masker{re: regexp.MustCompile("(?i)(?:" + strings.Join(alts, "|") + ")")}
}

// String returns s with every secret replaced by Masked.
func (m *Masker) String(s string) string {
	if m.re == nil {
		return s
	}
	return m.re.ReplaceAllLiteralString(s, Masked)
}

// JSON decodes body as one JSON value with every secret masked in its strings, its keys
// and its numbers (a number holding a secret becomes the masked string); ok is false when
// body is not JSON. Secrets are matched in the decoded text, so an endpoint that escapes
// them (\u0041, \/) does not slip them through.
func (m *Masker) JSON(body []byte) (v any, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false // something after the value
	}
	return m.value(v), true
}

func (m *Masker) value(v any) any {
	switch x := v.(type) {
	case string:
		return m.String(x)
	case json.Number:
		if s := m.String(x.String()); s != x.String() {
			return s
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x.String()
	case []any:
		for i := range x {
			x[i] = m.value(x[i])
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[m.String(k)] = m.value(e)
		}
		return out
	}
	return v
}
