package snapshot

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/org/pipeline-action/engine/model"
)

// Clone deep-copies a state, field by field: what one event costs must not grow with the
// stages its runs passed, so the copy does not go through JSON. The values of contexts,
// variables and outputs are copied as JSON would give them back (numbers as float64),
// as they are when the state is loaded. TestCloneCopiesEveryField holds it to every field.
func Clone(st *model.State) *model.State {
	if st == nil {
		return &model.State{Version: 1}
	}
	out := *st
	if st.Runs != nil {
		out.Runs = make([]*model.Run, len(st.Runs))
		for i, r := range st.Runs {
			out.Runs[i] = cloneRun(r)
		}
	}
	out.Ignored = slices.Clone(st.Ignored)
	out.Past = slices.Clone(st.Past)
	out.Marks = maps.Clone(st.Marks)
	out.Disowned = slices.Clone(st.Disowned)
	out.Refused = slices.Clone(st.Refused)
	out.Retested = slices.Clone(st.Retested)
	out.Shared = cloneValues(st.Shared)
	out.Enabled = maps.Clone(st.Enabled)
	out.Followers = slices.Clone(st.Followers)
	return &out
}

func cloneRun(r *model.Run) *model.Run {
	if r == nil {
		return nil
	}
	out := *r
	if r.Stages != nil {
		out.Stages = make(map[string]*model.StageRun, len(r.Stages))
		slab := make([]model.StageRun, len(r.Stages)) // one allocation for all the records
		i := 0
		for id, sr := range r.Stages {
			if sr == nil {
				out.Stages[id] = nil
				continue
			}
			slab[i] = *sr
			cloneStageRun(&slab[i])
			out.Stages[id] = &slab[i]
			i++
		}
	}
	out.History = slices.Clone(r.History)
	out.Applied = slices.Clone(r.Applied)
	out.Intents = slices.Clone(r.Intents)
	out.Context = cloneValues(r.Context)
	out.Iterations = maps.Clone(r.Iterations)
	out.Variables = cloneValues(r.Variables)
	return &out
}

// cloneStageRun makes out, a copy of a record, share nothing with it.
func cloneStageRun(out *model.StageRun) {
	sr := *out
	out.Deadlines = slices.Clone(sr.Deadlines)
	out.Results = slices.Clone(sr.Results)
	out.Approvals = slices.Clone(sr.Approvals)
	if sr.Skipped != nil {
		a := *sr.Skipped
		out.Skipped = &a
	}
	out.Outputs = cloneValues(sr.Outputs)
	if sr.OutputsFile != nil {
		f := *sr.OutputsFile
		f.Keys = slices.Clone(f.Keys)
		out.OutputsFile = &f
	}
	if sr.Stale != nil {
		s := *sr.Stale
		s.Reviews = slices.Clone(s.Reviews)
		out.Stale = &s
	}
}

// cloneValues deep-copies a JSON object held as a map.
func cloneValues(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = cloneValue(v)
	}
	return out
}

// cloneValue deep-copies a JSON value, as JSON would give it back.
func cloneValue(v any) any {
	switch v := v.(type) {
	case nil, bool, string, float64:
		return v
	case int:
		return float64(v)
	case map[string]any:
		return cloneValues(v)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = cloneValue(x)
		}
		return out
	}
	js, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("engine: state value does not marshal: %v", err))
	}
	var out any
	if err := json.Unmarshal(js, &out); err != nil {
		panic(fmt.Sprintf("engine: state value does not unmarshal: %v", err))
	}
	return out
}
