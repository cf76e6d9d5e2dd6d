package graphql

import "github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"

func treeResolvers() {
	on("Tree", map[string]resolver{
		"oid":            value(func(t *world.Tree) any { return t.OID }),
		"id":             value(func(t *world.Tree) any { return world.NodeID("Tree", world.StableID(t.OID)) }),
		"abbreviatedOid": value(func(t *world.Tree) any { return t.OID[:7] }),
		"entries":        value(func(t *world.Tree) any { return t.Entries }),
	})
	on("TreeEntry", map[string]resolver{
		"name":   value(func(e world.TreeEntry) any { return e.Name }),
		"path":   value(func(e world.TreeEntry) any { return e.Path }),
		"type":   value(func(e world.TreeEntry) any { return e.Type() }),
		"mode":   value(func(e world.TreeEntry) any { return e.Mode() }),
		"oid":    value(func(e world.TreeEntry) any { return e.OID() }),
		"object": value(func(e world.TreeEntry) any { return e.Obj }),
	})
}
