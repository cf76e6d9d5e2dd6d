package load

import "flag"

// update makes golden-file tests rewrite their files: go test ./engine/lang/load -update
var update = flag.Bool("update", false, "rewrite golden files")
