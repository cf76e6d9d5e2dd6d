package gqlexec

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// Conn is a page of a connection: the selected items and where they sit in the whole list.
type Conn struct {
	Items   []any
	Offset  int // index of Items[0] in the whole list
	Total   int
	HasNext bool
	HasPrev bool
}

// Edge is one item of a connection with its cursor.
type Edge struct {
	Node   any
	Cursor string
}

// pageInfo is a connection's PageInfo.
type pageInfo struct{ c *Conn }

// Cursor is the opaque cursor of the item at index i, in GitHub's form.
func Cursor(i int) string {
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

// IntArg returns an integer argument.
func IntArg(args map[string]any, name string) (int, bool) {
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

// StrArg returns a string argument, "" when absent.
func StrArg(args map[string]any, name string) string {
	s, _ := args[name].(string)
	return s
}

// Paginate selects a page of items with first/last/after/before as GitHub does: one of first or
// last is required and at most 100.
func Paginate(field string, items []any, args map[string]any) (*Conn, error) {
	first, hasFirst := IntArg(args, "first")
	last, hasLast := IntArg(args, "last")
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
	if a := StrArg(args, "after"); a != "" {
		i, err := decodeCursor(a)
		if err != nil {
			return nil, err
		}
		lo = min(i+1, hi)
	}
	if b := StrArg(args, "before"); b != "" {
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
	return &Conn{Items: items[lo:hi], Offset: lo, Total: len(items), HasNext: hi < len(items), HasPrev: lo > 0}, nil
}

// genericResolver serves the fields every connection, edge and PageInfo has.
func genericResolver(typ, field string) Resolver {
	switch {
	case strings.HasSuffix(typ, "Connection"):
		return connectionField(field)
	case strings.HasSuffix(typ, "Edge"):
		switch field {
		case "node":
			return func(p any, _ map[string]any) (any, error) { return p.(Edge).Node, nil }
		case "cursor":
			return func(p any, _ map[string]any) (any, error) { return p.(Edge).Cursor, nil }
		}
	case typ == "PageInfo":
		return func(p any, _ map[string]any) (any, error) { return pageInfoField(p.(pageInfo).c, field), nil }
	}
	return nil
}

// connectionField serves nodes, totalCount, pageInfo and edges of a *Conn.
func connectionField(field string) Resolver {
	switch field {
	case "nodes":
		return func(p any, _ map[string]any) (any, error) { return p.(*Conn).Items, nil }
	case "totalCount":
		return func(p any, _ map[string]any) (any, error) { return p.(*Conn).Total, nil }
	case "pageInfo":
		return func(p any, _ map[string]any) (any, error) { return pageInfo{p.(*Conn)}, nil }
	case "edges":
		return func(p any, _ map[string]any) (any, error) {
			c := p.(*Conn)
			out := make([]any, len(c.Items))
			for i, it := range c.Items {
				out[i] = Edge{Node: it, Cursor: Cursor(c.Offset + i)}
			}
			return out, nil
		}
	}
	return nil
}

// pageInfoField is field of c's PageInfo.
func pageInfoField(c *Conn, field string) any {
	switch field {
	case "hasNextPage":
		return c.HasNext
	case "hasPreviousPage":
		return c.HasPrev
	case "startCursor":
		if len(c.Items) == 0 {
			return nil
		}
		return Cursor(c.Offset)
	case "endCursor":
		if len(c.Items) == 0 {
			return nil
		}
		return Cursor(c.Offset + len(c.Items) - 1)
	}
	return nil
}

// Generic reports whether the executor serves typ.field itself (connections, edges, PageInfo).
func Generic(typ, field string) bool { return genericResolver(typ, field) != nil }
