package sim

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// longScenario is a scenario of about n steps on one pull request: rounds of a push, a
// failing check, an approval and a comment, then the green check that merges it. Each push
// adds a commit and a file, so the fake's history, trees and timeline grow with the story.
func longScenario(n int) string {
	var b strings.Builder
	b.WriteString("repo: acme/widgets\nconfig: pipelines.yaml\nusers: {alice: write, bob: write, dev: write}\nsteps:\n")
	b.WriteString("  - open_pr: {number: 7, author: dev, base: main, head: feat/long}\n")
	for i := 0; i < (n-2)/4; i++ {
		fmt.Fprintf(&b, "  - push: {pr: 7, files: {src/f%d.go: pipelines.yaml}}\n", i)
		b.WriteString("  - check: {pr: 7, name: test, conclusion: failure}\n")
		b.WriteString("  - review: {pr: 7, user: alice, state: approved}\n")
		fmt.Fprintf(&b, "  - comment: {pr: 7, user: bob, body: \"round %d\"}\n", i)
	}
	b.WriteString("  - check: {pr: 7, name: test, conclusion: success}\n")
	b.WriteString("expect:\n  prs: {7: {merged: true}}\n")
	return b.String()
}

// BenchmarkLongScenario plays long scenarios with `simulate`, as a user plays a long story.
func BenchmarkLongScenario(b *testing.B) {
	for _, n := range []int{300, 1200} {
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			cfg, err := os.ReadFile(exampleConfig)
			if err != nil {
				b.Fatal(err)
			}
			for name, text := range map[string][]byte{"pipelines.yaml": cfg, "scenario.yaml": []byte(longScenario(n))} {
				if err := os.WriteFile(filepath.Join(dir, name), text, 0o600); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				var out, errOut bytes.Buffer
				if code := Main(context.Background(), []string{dir}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "PASS: every expectation holds") {
					b.Fatalf("exit %d\n%s\n%s", code, tail(out.String()), errOut.String())
				}
			}
		})
	}
}

// tail is the end of a long output.
func tail(s string) string {
	if len(s) > 4000 {
		return s[len(s)-4000:]
	}
	return s
}
