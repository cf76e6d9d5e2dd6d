package world

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestHistoryIndexMatchesWalk grows a history (a line of commits, a side branch merged back,
// commits that touch the path and commits that do not), asking for histories as it grows, and
// holds every history served to the walk's.
func TestHistoryIndexMatchesWalk(t *testing.T) {
	r := &Repo{Commits: map[string]*Commit{}}
	at := time.Unix(1_700_000_000, 0)
	var seq int64
	add := func(files map[string]*Blob, parents ...string) *Commit {
		seq++
		c := &Commit{Repo: r, SHA: FakeSHA("c", seq), Date: at.Add(time.Duration(seq) * time.Minute), Seq: seq, Parents: parents, Files: CopyFiles(files)}
		r.Commits[c.SHA] = c
		return c
	}
	files := map[string]*Blob{}
	head := add(files)
	var side *Commit
	for i := 0; i < 40; i++ {
		if i%3 == 0 {
			files[fmt.Sprintf("dir/f%d", i)] = &Blob{OID: BlobOID(fmt.Sprint(i))}
		} else {
			files[fmt.Sprintf("other/f%d", i)] = &Blob{OID: BlobOID(fmt.Sprint(i))}
		}
		switch {
		case i == 10:
			side = add(files, head.SHA)
		case i == 20:
			head = add(files, head.SHA, side.SHA)
		case i > 10 && i < 20 && i%2 == 0:
			side = add(files, side.SHA)
		default:
			head = add(files, head.SHA)
		}
		for _, c := range []*Commit{head, side} {
			if c == nil {
				continue
			}
			for _, q := range []struct {
				dir    string
				filter bool
			}{{"", false}, {"dir", true}, {"other", true}, {"none", true}} {
				assert.Equal(t, r.walk(c, q.dir, q.filter), r.History(c, q.dir, q.filter), "commit %d, %q", c.Seq, q.dir)
			}
		}
	}
}
