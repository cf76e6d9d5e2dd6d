package variables

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

func TestSet(t *testing.T) {
	st, run := &model.State{}, &model.Run{ID: "p/1/1"}
	done, err := Set(st, run, lang.ActionSetVariable, "x", lang.Value{Kind: lang.KindString, Scalar: "1"}, lang.Env{"variables": map[string]any{"kept": "yes"}})
	assert.Empty(t, err)
	assert.Equal(t, `variable x set to "1"`, done)
	assert.Equal(t, map[string]any{"kept": "yes", "x": "1"}, run.Variables, "a run started before its variables were kept keeps what it read")
	assert.Nil(t, st.Shared, "a run variable never changes a shared one")

	done, err = Set(st, run, lang.ActionSetShared, "x", lang.Value{Kind: lang.KindString, Scalar: "2"}, nil)
	assert.Empty(t, err)
	assert.Equal(t, `shared variable x set to "2"`, done)
	assert.Equal(t, "2", st.Shared["x"])
	assert.Equal(t, "1", run.Variables["x"])

	_, err = Set(st, run, lang.ActionSetVariable, "1bad", lang.Value{Kind: lang.KindString, Scalar: "1"}, nil)
	assert.Contains(t, err, "is not a variable name")
	_, err = Set(st, run, lang.ActionSetVariable, "big", lang.Value{Kind: lang.KindString, Scalar: strings.Repeat("x", model.MaxVariableBytes)}, nil)
	assert.Contains(t, err, "bytes of JSON, more than")
}

func TestSharedOverDefaults(t *testing.T) {
	cfg := &lang.Config{SharedDefaults: []lang.KeyValue{{Key: "a", Value: lang.Value{Kind: lang.KindString, Scalar: "default"}}, {Key: "b", Value: lang.Value{Kind: lang.KindString, Scalar: "b"}}}}
	got := Shared(cfg, &model.State{Shared: map[string]any{"a": "set"}})
	assert.Equal(t, map[string]any{"a": "set", "b": "b"}, got)
}
