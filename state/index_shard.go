package state

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
)

// The index of open runs is kept in IndexShards files under IndexDir: a subject's open
// runs are in the shard its file hashes to (ShardFile). A save rewrites only its subject's
// shard, and only when that subject's entries change, so what a save writes grows with a
// sixteenth of the open runs, and a shard reaches the GitHubBlobText bytes GitHub gives of
// a file at sixteen times the open runs one file would. A reader of every open run (the
// sweep, the status) reads the IndexShards files in one query, each with the commit that
// last changed it, so that each is trusted on its own (TrustFile).
//
// IndexFile, the one index an older action writes, is read as well while it is on the
// branch: the first save that reads it trusted moves its entries into the shards and
// deletes it (Migrate).

// IndexDir is the directory of the index's shards on the state branch.
const IndexDir = "index"

// IndexShards is how many files the index is split in.
const IndexShards = 16

// ShardFile is the shard of the index that lists the open runs of the subject whose file
// is file: index/00.json to index/0f.json, by the FNV-1a hash of file.
func ShardFile(file string) string {
	h := fnv.New32a()
	h.Write([]byte(file))
	return fmt.Sprintf("%s/%02x.json", IndexDir, h.Sum32()%IndexShards)
}

// ShardFiles are the paths of every shard, in order.
func ShardFiles() []string {
	out := make([]string, IndexShards)
	for i := range out {
		out[i] = fmt.Sprintf("%s/%02x.json", IndexDir, i)
	}
	return out
}

// IsIndexFile reports whether path is IndexFile or a shard of the index.
func IsIndexFile(path string) bool {
	return path == IndexFile || strings.HasPrefix(path, IndexDir+"/")
}

// withEntries returns a copy of idx whose entries for file are entries.
func (idx *Index) withEntries(file string, entries []IndexEntry) *Index {
	out := &Index{Version: indexVersion}
	if idx != nil {
		for _, e := range idx.Runs {
			if e.File != file {
				out.Runs = append(out.Runs, e)
			}
		}
	}
	out.Runs = append(out.Runs, entries...)
	return out
}

// encodeEntries writes idx's entries one a line, sorted by file and run: a shard's diff
// shows the runs that changed, in about two thirds of the bytes of indented JSON.
func encodeEntries(idx *Index) (string, error) {
	runs := append([]IndexEntry{}, idx.Runs...)
	sort.Slice(runs, func(i, j int) bool {
		a, b := runs[i], runs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Run < b.Run
	})
	var b strings.Builder
	fmt.Fprintf(&b, "{\"version\": %d, \"runs\": [", indexVersion)
	for i, e := range runs {
		js, err := json.MarshalIndent(e, "", "")
		if err != nil {
			return "", fmt.Errorf("encoding the index: %w", err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		// JSON text holds no newline but between its tokens.
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(string(js), ",\n", ", "), "\n", ""))
	}
	if len(runs) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("]}\n")
	return b.String(), nil
}
