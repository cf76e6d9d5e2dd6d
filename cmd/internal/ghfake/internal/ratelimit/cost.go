package ratelimit

import (
	"fmt"
	"math"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
)

// Cost is the points a GraphQL operation costs by GitHub's formula: add up the requests
// needed to fulfil each connection (a field given `first` or `last`), taking every
// connection above it to return as many nodes as it asks for; divide by 100 and round;
// at least 1. A mutation is priced alike.
// https://docs.github.com/en/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#calculating-points-for-the-primary-rate-limit
func Cost(op *ast.OperationDefinition, vars map[string]any) int {
	requests := connections(op.SelectionSet, 1, vars)
	return max(1, int(math.Round(float64(requests)/100)))
}

// connections counts the requests the connections of set need, each fetched once for each
// of the mult nodes above it.
func connections(set ast.SelectionSet, mult int, vars map[string]any) int {
	n := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			m := mult
			if size := pageSize(s, vars); size > 0 {
				n += mult
				m = mult * size
			}
			n += connections(s.SelectionSet, m, vars)
		case *ast.InlineFragment:
			n += connections(s.SelectionSet, mult, vars)
		case *ast.FragmentSpread:
			if s.Definition != nil {
				n += connections(s.Definition.SelectionSet, mult, vars)
			}
		}
	}
	return n
}

// pageSize is the larger of a field's `first` and `last`; 0 when it has neither.
func pageSize(f *ast.Field, vars map[string]any) int {
	size := 0
	for _, name := range []string{"first", "last"} {
		a := f.Arguments.ForName(name)
		if a == nil {
			continue
		}
		v, err := a.Value.Value(vars)
		if err != nil || v == nil {
			continue
		}
		if n, err := strconv.Atoi(fmt.Sprint(v)); err == nil && n > size {
			size = n
		}
	}
	return size
}
