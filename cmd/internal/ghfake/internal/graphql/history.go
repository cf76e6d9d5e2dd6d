package graphql

import (
	"fmt"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

func historyResolvers() {
	on("Commit", map[string]resolver{
		"history": func(_ *executor, p any, a map[string]any) (any, error) {
			c := p.(*world.Commit)
			for _, unsupported := range []string{"author", "since", "until"} {
				if a[unsupported] != nil {
					return nil, fmt.Errorf("ghfake: Commit.history does not implement the %s argument", unsupported)
				}
			}
			dir, filter := a["path"].(string)
			return paginate("history", c.Repo.History(c, dir, filter), a)
		},
		"file": func(_ *executor, p any, a map[string]any) (any, error) {
			c := p.(*world.Commit)
			return c.Repo.FileAt(c, strArg(a, "path")), nil
		},
		"parents": func(_ *executor, p any, a map[string]any) (any, error) {
			c := p.(*world.Commit)
			var items []any
			for _, sha := range c.Parents {
				if pc := c.Repo.Commits[sha]; pc != nil {
					items = append(items, pc)
				}
			}
			return paginate("parents", items, a)
		},
	})
}
