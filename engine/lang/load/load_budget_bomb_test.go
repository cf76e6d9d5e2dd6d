package load

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// billionLaughs is the classic bomb: ten levels, each a list of ten aliases of the
// level before, so 2 KB of YAML name 10^9 scalars.
func billionLaughs() string {
	var b strings.Builder
	b.WriteString(`l0: &l0 "lol"` + "\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	return b.String()
}

// TestLoadBillionLaughs checks that the classic bomb is refused at the alias where it
// passes 100,000 nodes, alone and after a large config: nodes written raise the
// bound to twice their number, never enough for a bomb.
func TestLoadBillionLaughs(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"alone", billionLaughs(),
			"f.yaml:6:25: the config expands to more than 100000 nodes (aliases are expanded where they are used); " +
				"alias *l4 adds 22222 nodes every time it is used; alias a smaller part, or use it in fewer places [value]"},
		{"after 150,000 nodes written", "pad: [" + strings.Repeat("1,", 150000) + "1]\n" + billionLaughs(),
			"f.yaml:7:35: the config expands to more than 300126 nodes, 2 times the 150063 written in it (aliases are expanded where they are used); " +
				"alias *l4 adds 22222 nodes every time it is used; alias a smaller part, or use it in fewer places [value]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load("f.yaml", []byte(tt.src), fakeRegistry{})
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}
