package lang

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// ValueOf turns a config value into data, filling its templates from env.
func ValueOf(v Value, env Env) (any, error) {
	switch v.Kind {
	case KindNull:
		return nil, nil
	case KindString:
		if v.Template != nil {
			return v.Template.Value(env)
		}
		return v.Scalar, nil
	case KindInt:
		n, err := strconv.ParseInt(v.Scalar, 0, 64)
		if err != nil {
			return v.Scalar, nil
		}
		return int(n), nil
	case KindFloat:
		f, err := strconv.ParseFloat(v.Scalar, 64)
		if err != nil {
			return v.Scalar, nil
		}
		return f, nil
	case KindBool:
		return v.Scalar == "true", nil
	case KindList:
		out := make([]any, 0, len(v.List))
		for _, x := range v.List {
			y, err := ValueOf(x, env)
			if err != nil {
				return nil, err
			}
			out = append(out, y)
		}
		return out, nil
	case KindMap:
		out := map[string]any{}
		for _, kv := range v.Map {
			y, err := ValueOf(kv.Value, env)
			if err != nil {
				return nil, err
			}
			out[kv.Key] = y
		}
		return out, nil
	}
	return nil, fmt.Errorf("value of unknown kind at %s", v.Pos)
}

// JSONValue keeps v as the state will read it back (numbers as float64, structs as maps).
func JSONValue(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Sprint(v)
	}
	return out
}

func JSONSafe(m map[string]any) map[string]any {
	if len(m) == 0 {
		return nil
	}
	out, _ := JSONValue(m).(map[string]any)
	return out
}
