package state

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"strconv"
	"strings"
)

// maxSums bounds AuditTail.Sums: one SHA-256 for each audit part and archived run would
// grow the subject's file with every run that ever left it. Past maxSums, the sums move
// to a sums file in the audit directory (audit/pr-7/sums-0001.json), written once, and
// the tail keeps only that file's own sum: each sums file vouches for the one before it,
// a chain from the subject's file to every file the action wrote.
const maxSums = 64

// sumsPrefix begins the name of a sums file; audit parts are numbers, archives run ids
// with dots, so neither takes such a name.
const sumsPrefix = "sums-"

// isSumsFile reports whether p is a sums file.
func isSumsFile(p string) bool {
	return strings.HasPrefix(path.Base(p), sumsPrefix) && strings.HasSuffix(p, ".json")
}

// rollSums moves tail's sums to a new sums file of the subject whose file is file when
// they are more than maxSums; it returns the file to write (nil: none). tail is changed.
func rollSums(file string, tail *AuditTail) (*FileChange, error) {
	if tail == nil || len(tail.Sums) <= maxSums {
		return nil, nil
	}
	n := 0
	for p := range tail.Sums {
		if isSumsFile(p) {
			k, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(path.Base(p), sumsPrefix), ".json"))
			n = max(n, k)
		}
	}
	js, err := json.MarshalIndent(tail.Sums, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding a sums file: %w", err)
	}
	f := FileChange{Path: fmt.Sprintf("%s/%s%04d.json", AuditDir(file), sumsPrefix, n+1), Text: string(js) + "\n"}
	tail.Sums = map[string]string{f.Path: textSum(f.Text)}
	return &f, nil
}

// vouchedSums are the sums the subject's file vouches for: its tail's, and those of each
// sums file among parts whose own sum is vouched for, down the chain. A sums file whose
// text is not the one vouched for adds nothing.
func vouchedSums(tail *AuditTail, parts map[string]string) map[string]string {
	if tail == nil {
		return nil
	}
	sums := maps.Clone(tail.Sums)
	for grew := true; grew; {
		grew = false
		for p, text := range parts {
			if !isSumsFile(p) || sums[p] == "" || sums[p] != textSum(text) {
				continue
			}
			var more map[string]string
			if json.Unmarshal([]byte(text), &more) != nil {
				continue
			}
			for q, sum := range more {
				if _, ok := sums[q]; !ok {
					sums[q], grew = sum, true
				}
			}
		}
	}
	return sums
}
