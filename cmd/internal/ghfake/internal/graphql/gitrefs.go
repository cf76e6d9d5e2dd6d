package graphql

import (
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// signature is a commit's signature, served as a GpgSignature (GitHub's web-flow key is a
// GPG key).
type signature struct{ c *world.Commit }

func gitObjectResolvers() {
	on("Commit", map[string]resolver{
		"author":              value(func(c *world.Commit) any { return c.Author }),
		"committer":           value(func(c *world.Commit) any { return c.Committer }),
		"committedViaWeb":     value(func(c *world.Commit) any { return c.ViaWeb }),
		"authoredByCommitter": value(func(c *world.Commit) any { return c.Author == c.Committer }),
		"signature": value(func(c *world.Commit) any {
			if c.Sig == "" {
				return nil
			}
			return signature{c}
		}),
	})
	on("GitActor", map[string]resolver{
		"name":  value(func(a world.GitActor) any { return a.Name }),
		"email": value(func(a world.GitActor) any { return a.Email }),
		"date":  value(func(a world.GitActor) any { return gqlTime(a.Date) }),
		// A bot's commits match its account: GitHub serves it here as a User whose login
		// ends in [bot], as the User-typed viewer is.
		"user": value(func(a world.GitActor) any { return actorOrNil(a.Login) }),
	})
	on("GpgSignature", map[string]resolver{
		"isValid":           value(func(s signature) any { return true }),
		"state":             value(func(s signature) any { return "VALID" }),
		"wasSignedByGitHub": value(func(s signature) any { return s.c.Sig == world.WebFlow }),
		"signer":            value(func(s signature) any { return actor(s.c.Sig) }),
		"email":             value(func(s signature) any { return world.AccountActor(s.c.Sig, s.c.Date).Email }),
		"keyId":             value(func(s signature) any { return strings.ToUpper(world.FakeSHA("key", s.c.Sig)[:16]) }),
		"verifiedAt":        value(func(s signature) any { return gqlTime(s.c.Date) }),
		"payload":           value(func(s signature) any { return s.c.Payload() }),
		"signature": value(func(s signature) any {
			return "-----BEGIN PGP SIGNATURE-----\n\n" + world.FakeSHA("sig", s.c.SHA) + "\n-----END PGP SIGNATURE-----\n"
		}),
	})
}
