package sim

import (
	"crypto/sha256"
	"fmt"
	"sort"
)

// noiseAlphabet is what noise is made of: 64 characters JSON keeps as they are, so that
// n characters of noise are n bytes of outputs.
const noiseAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// withNoise returns a report step's outputs with the noise it asks for: per key, that
// many characters that gzip cannot shrink much, the same for the same run, attempt, stage
// and key (a scenario plays the same way every time).
func withNoise(v *reportStep, runID string, attempt int) (map[string]any, error) {
	if len(v.Noise) == 0 {
		return v.Outputs, nil
	}
	outputs := map[string]any{}
	for k, x := range v.Outputs {
		outputs[k] = x
	}
	keys := make([]string, 0, len(v.Noise))
	for k := range v.Noise {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		n := v.Noise[k]
		if n < 1 || n > 1<<20 {
			return nil, fmt.Errorf("report: noise %q must be from 1 to %d characters, not %d", k, 1<<20, n)
		}
		if _, ok := outputs[k]; ok {
			return nil, fmt.Errorf("report: %q is in both outputs and noise", k)
		}
		outputs[k] = noise(fmt.Sprintf("%s/%s/%d/%s", runID, v.Stage, attempt, k), n)
	}
	return outputs, nil
}

// noise is n characters of noiseAlphabet drawn from a SHA-256 chain seeded with seed.
func noise(seed string, n int) string {
	out := make([]byte, 0, n)
	sum := sha256.Sum256([]byte(seed))
	for len(out) < n {
		for _, b := range sum {
			if len(out) == n {
				break
			}
			out = append(out, noiseAlphabet[b&63])
		}
		sum = sha256.Sum256(sum[:])
	}
	return string(out)
}
