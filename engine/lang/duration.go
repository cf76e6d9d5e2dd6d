package lang

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// ParseDuration reads a duration of the language: Go's forms ("30s", "5m", "1h30m",
// "1.5h") plus days ("7d", "1d12h"; a day is 24 hours). A duration must be positive.
func ParseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	bad := func() error { return fmt.Errorf("invalid duration %q; use a number and a unit: 30s, 5m, 2h, 7d", s) }
	if t == "" {
		return 0, bad()
	}
	neg := false
	if t[0] == '-' || t[0] == '+' {
		neg = t[0] == '-'
		t = t[1:]
	}
	if t == "0" {
		return 0, fmt.Errorf("duration %q must be positive", s)
	}
	var total float64 // nanoseconds
	for t != "" {
		i := 0
		for i < len(t) && (t[i] == '.' || (t[i] >= '0' && t[i] <= '9')) {
			i++
		}
		num := t[:i]
		j := i
		for j < len(t) && !(t[j] == '.' || (t[j] >= '0' && t[j] <= '9')) {
			j++
		}
		unit := t[i:j]
		t = t[j:]
		n, err := strconv.ParseFloat(num, 64)
		if num == "" || err != nil || strings.HasPrefix(num, ".") && len(num) == 1 {
			return 0, bad()
		}
		var u time.Duration
		switch unit {
		case "d":
			u = 24 * time.Hour
		case "h":
			u = time.Hour
		case "m":
			u = time.Minute
		case "s":
			u = time.Second
		case "ms":
			u = time.Millisecond
		case "us", "µs", "μs":
			u = time.Microsecond
		case "ns":
			u = time.Nanosecond
		default:
			return 0, bad()
		}
		total += n * float64(u)
	}
	if total >= math.MaxInt64 {
		return 0, fmt.Errorf("duration %q is too long", s)
	}
	d := time.Duration(total)
	if neg || d <= 0 {
		return 0, fmt.Errorf("duration %q must be positive", s)
	}
	return d, nil
}

// Duration returns key as a duration (see ParseDuration), or def when absent. A bad
// duration is recorded as an error of kind "type" at the value.
func (p *Params) Duration(key string, def time.Duration) time.Duration {
	n, ok := p.keys[key]
	if !ok {
		return def
	}
	p.used[key] = true
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errorf(n, "%q of check %q must be a duration such as 30s, 5m, 2h or 7d", key, p.Check)
		return def
	}
	d, err := ParseDuration(n.Value)
	if err != nil {
		p.errs = append(p.errs, &Error{Pos: p.pos(n), Message: fmt.Sprintf("%q of check %q: %s", key, p.Check, err), Kind: "type"})
		return def
	}
	return d
}
