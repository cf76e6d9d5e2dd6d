package webhook

import (
	"testing"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRenderWebhookURL(t *testing.T) {
	env := lang.Env{"context": map[string]any{"v": "a/b", "dot": "..", "n": 7, "at": "@evil.example"}}
	cases := []struct{ src, want, err string }{
		{src: "https://h.example/x/{{ context.v }}", want: "https://h.example/x/a%2Fb"},
		{src: "https://h.example/{{ context.dot }}/y", want: "https://h.example/%2E%2E/y"},
		{src: "https://h.example/q?a={{ context.v }}&n={{ context.n }}", want: "https://h.example/q?a=a%2Fb&n=7"},
		{src: "https://h.example/{{ context.at }}", want: "https://h.example/@evil.example"},
		{src: "https://h.example{{ context.v }}", err: "h.examplea"},
		{src: "http://h.example/{{ context.v }}", err: "not https"},
	}
	for _, tc := range cases {
		tpl, cerr := lang.CompileTemplate(tc.src, lang.Pos{Line: 1, Col: 1})
		require.Nil(t, cerr)
		got, err := RenderURL(tpl, env, "h.example")
		if tc.err != "" {
			require.Error(t, err, tc.src)
			assert.Contains(t, err.Error(), tc.err)
			continue
		}
		require.NoError(t, err, tc.src)
		assert.Equal(t, tc.want, got)
	}
}
