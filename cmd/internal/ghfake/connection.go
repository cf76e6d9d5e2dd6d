package ghfake

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// conn is a page of a connection: the selected items and where they sit in the whole list.
type conn struct {
	items   []any
	offset  int // index of items[0] in the whole list
	total   int
	hasNext bool
	hasPrev bool
}

// edge is one item of a connection with its cursor.
type edge struct {
	node   any
	cursor string
}

// pageInfo is a connection's PageInfo.
type pageInfo struct{ c *conn }

func cursor(i int) string {
	return base64.StdEncoding.EncodeToString([]byte("cursor:v2:" + strconv.Itoa(i)))
}

func decodeCursor(s string) (int, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err == nil {
		if n, ok := strings.CutPrefix(string(b), "cursor:v2:"); ok {
			if i, err := strconv.Atoi(n); err == nil {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("`%s` does not appear to be a valid cursor.", s)
}

// intArg returns an integer argument.
func intArg(args map[string]any, name string) (int, bool) {
	switch v := args[name].(type) {
	case int:
		return v, true
	case int64:
		return int(v), true
	case float64:
		return int(v), true
	}
	return 0, false
}

func strArg(args map[string]any, name string) string {
	s, _ := args[name].(string)
	return s
}

// paginate selects a page of items with first/last/after/before as GitHub does: one of first or
// last is required and at most 100.
func paginate(field string, items []any, args map[string]any) (*conn, error) {
	first, hasFirst := intArg(args, "first")
	last, hasLast := intArg(args, "last")
	if !hasFirst && !hasLast {
		return nil, fmt.Errorf("You must provide a `first` or `last` value to properly paginate the `%s` connection.", field)
	}
	for _, n := range []struct {
		name string
		v    int
		has  bool
	}{{"first", first, hasFirst}, {"last", last, hasLast}} {
		if n.has && n.v > 100 {
			return nil, fmt.Errorf("Requesting %d records on the `%s` connection exceeds the `%s` limit of 100 records.", n.v, field, n.name)
		}
		if n.has && n.v < 0 {
			return nil, fmt.Errorf("`%s` on the `%s` connection cannot be less than zero.", n.name, field)
		}
	}
	lo, hi := 0, len(items)
	if a := strArg(args, "after"); a != "" {
		i, err := decodeCursor(a)
		if err != nil {
			return nil, err
		}
		lo = min(i+1, hi)
	}
	if b := strArg(args, "before"); b != "" {
		i, err := decodeCursor(b)
		if err != nil {
			return nil, err
		}
		hi = max(min(i, hi), lo)
	}
	if hasFirst && hi-lo > first {
		hi = lo + first
	}
	if hasLast && hi-lo > last {
		lo = hi - last
	}
	return &conn{items: items[lo:hi], offset: lo, total: len(items), hasNext: hi < len(items), hasPrev: lo > 0}, nil
}

// genericResolver serves the fields every connection, edge and PageInfo has.
func genericResolver(typ, field string) resolver {
	switch {
	case strings.HasSuffix(typ, "Connection"):
		switch field {
		case "nodes":
			return func(_ *executor, p any, _ map[string]any) (any, error) { return p.(*conn).items, nil }
		case "totalCount":
			return func(_ *executor, p any, _ map[string]any) (any, error) { return p.(*conn).total, nil }
		case "pageInfo":
			return func(_ *executor, p any, _ map[string]any) (any, error) { return pageInfo{p.(*conn)}, nil }
		case "edges":
			return func(_ *executor, p any, _ map[string]any) (any, error) {
				c := p.(*conn)
				out := make([]any, len(c.items))
				for i, it := range c.items {
					out[i] = edge{node: it, cursor: cursor(c.offset + i)}
				}
				return out, nil
			}
		}
	case strings.HasSuffix(typ, "Edge"):
		switch field {
		case "node":
			return func(_ *executor, p any, _ map[string]any) (any, error) { return p.(edge).node, nil }
		case "cursor":
			return func(_ *executor, p any, _ map[string]any) (any, error) { return p.(edge).cursor, nil }
		}
	case typ == "PageInfo":
		return func(_ *executor, p any, _ map[string]any) (any, error) {
			c := p.(pageInfo).c
			switch field {
			case "hasNextPage":
				return c.hasNext, nil
			case "hasPreviousPage":
				return c.hasPrev, nil
			case "startCursor":
				if len(c.items) == 0 {
					return nil, nil
				}
				return cursor(c.offset), nil
			case "endCursor":
				if len(c.items) == 0 {
					return nil, nil
				}
				return cursor(c.offset + len(c.items) - 1), nil
			}
			return nil, nil
		}
	}
	return nil
}

// typeOf is the GraphQL object type of a world value, for fields of interface or union type.
func typeOf(v any) string {
	switch x := v.(type) {
	case *repo:
		return "Repository"
	case *issue:
		if x.isPR {
			return "PullRequest"
		}
		return "Issue"
	case *commit:
		return "Commit"
	case *blob:
		return "Blob"
	case *tree:
		return "Tree"
	case actor:
		if isBot(string(x)) {
			return "Bot"
		}
		return "User"
	case *review:
		return "PullRequestReview"
	case *comment:
		return "IssueComment"
	case *checkRun:
		return "CheckRun"
	case *checkSuite:
		return "CheckSuite"
	case app:
		return "App"
	case wfRun:
		return "WorkflowRun"
	case workflow:
		return "Workflow"
	case *status:
		return "StatusContext"
	case label:
		return "Label"
	case ref:
		return "Ref"
	case *timelineEvent:
		return x.kind
	case signature:
		return "GpgSignature"
	}
	return ""
}
