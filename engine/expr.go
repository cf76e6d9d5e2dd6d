package engine

// Expr is a compiled expression (`condition:`, `if:`, `poll.condition`, `check: expr`).
// The expression compiler (CompileExpr) fills it.
type Expr struct {
	Src string
	Pos Pos
	impl any
}

// Template is a compiled string with `{{ … }}` parts. CompileTemplate fills it.
type Template struct {
	Src string
	Pos Pos
	impl any
}
