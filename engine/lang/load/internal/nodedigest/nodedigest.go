// Package nodedigest digests a YAML value as parsed: what it says, not how it is written.
// Comments, layout, quoting, flow or block style and the order of a mapping's keys do not
// change the digest; an alias counts as the value it names.
package nodedigest

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"

	"gopkg.in/yaml.v3"
)

// Of is the hex SHA-256 of n's canonical form.
func Of(n *yaml.Node) string {
	sum := sha256.Sum256(appendCanon(make([]byte, 0, 1024), n, 0))
	return hex.EncodeToString(sum[:])
}

// maxDepth bounds the walk: the loader refuses alias bombs before it digests, and this
// keeps a cycle from running away all the same.
const maxDepth = 200

// appendCanon appends n's canonical form to b: every part prefixed by its kind or
// length, so that no two values share a form.
func appendCanon(b []byte, n *yaml.Node, depth int) []byte {
	for n != nil && n.Kind == yaml.AliasNode && depth <= maxDepth {
		n, depth = n.Alias, depth+1
	}
	if n == nil || depth > maxDepth {
		return append(b, '~')
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			b = appendCanon(b, c, depth+1)
		}
		return b
	case yaml.SequenceNode:
		b = strconv.AppendInt(append(b, '['), int64(len(n.Content)), 10)
		for _, c := range n.Content {
			b = appendCanon(b, c, depth+1)
		}
		return append(b, ']')
	case yaml.MappingNode:
		return appendMapping(b, n, depth)
	}
	return appendScalar(b, n)
}

func appendScalar(b []byte, n *yaml.Node) []byte {
	tag := n.ShortTag()
	b = strconv.AppendInt(append(b, 's'), int64(len(tag)), 10)
	b = append(append(b, ':'), tag...)
	b = strconv.AppendInt(b, int64(len(n.Value)), 10)
	return append(append(b, ':'), n.Value...)
}

// appendMapping appends a mapping's pairs in the order of their keys: scalars by tag and
// text (no copy made), then any other key by its canonical form.
func appendMapping(b []byte, n *yaml.Node, depth int) []byte {
	type pair struct {
		key, val *yaml.Node
		tag      string
		canon    []byte // a key that is not a scalar
	}
	pairs := make([]pair, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		for k != nil && k.Kind == yaml.AliasNode && depth <= maxDepth {
			k = k.Alias
		}
		p := pair{key: n.Content[i], val: n.Content[i+1]}
		if k != nil && k.Kind == yaml.ScalarNode {
			p.key, p.tag = k, k.ShortTag()
		} else {
			p.canon = appendCanon(nil, k, depth+1)
		}
		pairs = append(pairs, p)
	}
	slices.SortStableFunc(pairs, func(x, y pair) int {
		if (x.canon == nil) != (y.canon == nil) {
			return cmp.Compare(len(x.canon), len(y.canon)) // scalars first
		}
		if x.canon != nil {
			return bytes.Compare(x.canon, y.canon)
		}
		return cmp.Or(cmp.Compare(x.tag, y.tag), cmp.Compare(x.key.Value, y.key.Value))
	})
	b = strconv.AppendInt(append(b, '{'), int64(len(pairs)), 10)
	for _, p := range pairs {
		b = appendCanon(appendCanon(b, p.key, depth+1), p.val, depth+1)
	}
	return append(b, '}')
}
