package snapshot

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// full returns a state in which every field of every type it holds is set, each to a
// value of its own.
func full() *model.State {
	var st model.State
	n := 0
	fill(reflect.ValueOf(&st).Elem(), &n)
	return &st
}

func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", *n))
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Interface:
		v.Set(reflect.ValueOf(map[string]any{"k": []any{float64(*n), "x", true, nil}}))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), n)
		fill(v.Index(1), n)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for i := 0; i < 2; i++ {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, n)
			fill(e, n)
			v.SetMapIndex(k, e)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			v.Set(reflect.ValueOf(t0.Add(time.Duration(*n) * time.Second)))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			fill(v.Field(i), n)
		}
	default:
		panic("fill: kind " + v.Kind().String())
	}
}

// leaves calls visit with every settable leaf of v (a string, number, bool, instant or
// JSON value) and commit, which writes a changed leaf through to v (a map's elements are
// copies).
func leaves(v reflect.Value, visit func(path string, leaf reflect.Value, commit func()), path string, commit func()) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			leaves(v.Elem(), visit, path, commit)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			leaves(v.Index(i), visit, fmt.Sprintf("%s[%d]", path, i), commit)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			leaves(e, visit, fmt.Sprintf("%s[%v]", path, k), func() { v.SetMapIndex(k, e); commit() })
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			visit(path, v, commit)
			return
		}
		for i := 0; i < v.NumField(); i++ {
			leaves(v.Field(i), visit, path+"."+v.Type().Field(i).Name, commit)
		}
	default:
		visit(path, v, commit)
	}
}

func changed(leaf reflect.Value) {
	switch leaf.Kind() {
	case reflect.String:
		leaf.SetString(leaf.String() + "!")
	case reflect.Int, reflect.Int64:
		leaf.SetInt(leaf.Int() + 1)
	case reflect.Bool:
		leaf.SetBool(!leaf.Bool())
	case reflect.Interface:
		leaf.Set(reflect.ValueOf("another"))
	case reflect.Struct:
		leaf.Set(reflect.ValueOf(leaf.Interface().(time.Time).Add(time.Nanosecond)))
	}
}

// Clone copies every field, and shares nothing with what it copies: changing any leaf of
// the copy leaves the original as it was.
func TestCloneCopiesEveryField(t *testing.T) {
	st := full()
	before := string(model.MustJSON(st))
	c := Clone(st)
	require.Equal(t, before, string(model.MustJSON(c)))
	require.True(t, Same(st, c))
	leaves(reflect.ValueOf(c).Elem(), func(path string, leaf reflect.Value, commit func()) {
		changed(leaf)
		commit()
		require.Equal(t, before, string(model.MustJSON(st)), "changing %s of the copy changed the original", path)
	}, "State", func() {})
}

// Same sees a change of any leaf of the state.
func TestSameStateSeesEveryField(t *testing.T) {
	st := full()
	c := Clone(st)
	count := 0
	leaves(reflect.ValueOf(c).Elem(), func(path string, leaf reflect.Value, commit func()) {
		old := reflect.New(leaf.Type()).Elem()
		old.Set(leaf)
		changed(leaf)
		commit()
		assert.False(t, Same(st, c), "a change of %s is not seen", path)
		leaf.Set(old)
		commit()
		require.True(t, Same(st, c), "%s put back", path)
		count++
	}, "State", func() {})
	assert.Greater(t, count, 100)
}

// What the state file keeps the same is the same state: empty and absent lists, an
// instant in another zone, a number held as an int or a float64.
func TestSameStateComparesAsStored(t *testing.T) {
	a := &model.State{Version: 1, Runs: []*model.Run{{ID: "r", StartedAt: t0, Stages: map[string]*model.StageRun{"s": {Results: []model.GateResult{}}},
		Context: map[string]any{"n": 7}}}}
	b := &model.State{Version: 1, Runs: []*model.Run{{ID: "r", StartedAt: t0.In(time.FixedZone("CET", 3600)), Stages: map[string]*model.StageRun{"s": {}},
		Context: map[string]any{"n": float64(7)}}}}
	assert.True(t, Same(a, b))
	b.Runs[0].Context["n"] = float64(8)
	assert.False(t, Same(a, b))
	assert.Equal(t, map[string]any{"n": float64(7)}, Clone(a).Runs[0].Context, "numbers come back as JSON gives them")
}

// Every field of the state goes through the stored form and back.
func TestStoredStateReadsBack(t *testing.T) {
	st := full()
	var decoded model.State
	require.NoError(t, json.Unmarshal(model.MustJSON(st), &decoded))
	assert.True(t, Same(st, &decoded))
}

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
