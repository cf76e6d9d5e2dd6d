package lang

// OutputsSchema is an agent stage's `outputs_schema`: the shape its report's outputs must
// have (a subset of JSON Schema: type, properties, required, enum, items), compiled by the
// loader. A report whose outputs do not match it is the stage's error.
type OutputsSchema struct {
	Pos Pos
	// check says why v does not match, or nil; the loader provides it, so that the language
	// names no schema library.
	check func(v any) error
}

// NewOutputsSchema is the schema at pos that check judges by.
func NewOutputsSchema(pos Pos, check func(v any) error) *OutputsSchema {
	return &OutputsSchema{Pos: pos, check: check}
}

// Check says why outputs do not match the schema, or returns nil.
func (s *OutputsSchema) Check(outputs map[string]any) error {
	if s == nil || s.check == nil {
		return nil
	}
	if outputs == nil {
		outputs = map[string]any{}
	}
	return s.check(outputs)
}
