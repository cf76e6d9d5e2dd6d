package lang

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
)

// Compiler compiles the expressions and templates of one config, each distinct
// expression text once: a config copied from one template repeats the same
// conditions in every pipeline, and every place a text is written shares its program.
// Sharing is safe because a compiled program is never changed after compilation (each
// evaluation runs it on a VM of its own), and because every expression is compiled
// with the same options (the types of compileEnv, nullPatch), so the text alone
// decides the program and the roots it reads. Only what does not depend on where the
// text is written is shared: each Expr has its own Src and Pos, and a text that does
// not compile is compiled again wherever it is written, so that each error points at
// its own place. A Compiler is used by one goroutine at a time; the nil *Compiler
// compiles every text afresh.
type Compiler struct {
	programs map[string]program // by the text of the expression as written
	config   *conf.Config       // the options, set up once; the checker caches types in it
	refs     []StageRef         // the stages named since TakeStageRefs
}

// program is what compiling an expression text gives, whatever its position.
type program struct {
	prog      *vm.Program
	roots     []string
	stageRefs []stageRef
}

// StageRef is a stage an expression names with a constant (`stages.review`,
// `stages["review"]`), and where.
type StageRef struct {
	ID  string
	Pos Pos
}

// TakeStageRefs returns the stages the expressions compiled since its last call name,
// in the order compiled, and forgets them.
func (c *Compiler) TakeStageRefs() []StageRef {
	if c == nil {
		return nil
	}
	out := c.refs
	c.refs = nil
	return out
}

// NewCompiler returns a Compiler with nothing compiled yet.
func NewCompiler() *Compiler { return &Compiler{programs: map[string]program{}} }

// CompileExpr compiles the condition src, written at pos (the position of the text's
// first character; for a quoted YAML scalar, the caller adds 1 for the quote). A
// condition wholly wrapped in `{{ … }}`, as the reference writes `poll.condition`, is
// compiled without the braces. Errors are of kind "expr" and point at the problem when
// it lies on the text's first line (else at pos).
func CompileExpr(src string, pos Pos) (*Expr, *Error) {
	return (*Compiler)(nil).Expr(src, pos)
}

// Expr is CompileExpr, compiling each distinct text once.
func (c *Compiler) Expr(src string, pos Pos) (*Expr, *Error) {
	if inner, off, ok := exprWrapped(src); ok {
		return c.compile(src, off, inner, pos)
	}
	return c.compile(src, 0, src, pos)
}

// compile compiles code, which begins at rune offset start of whole (the text
// written at pos).
func (c *Compiler) compile(whole string, start int, code string, pos Pos) (e *Expr, cerr *Error) {
	defer func() {
		if r := recover(); r != nil { // fail closed: an expression the compiler cannot take is an error
			e, cerr = nil, &Error{Pos: pos, Message: fmt.Sprintf("invalid expression %q: %v", code, r), Kind: KindExpr}
		}
	}()
	at := func(off int) Pos { return exprPosAt(pos, whole, start+off) }
	if strings.TrimSpace(code) == "" {
		return nil, &Error{Pos: at(0), Message: "empty expression", Kind: KindExpr}
	}
	p, ok := c.lookup(code)
	if !ok {
		var f *fault
		if p, f = build(code, c.compileConfig()); f != nil {
			return nil, &Error{Pos: at(f.off), Message: f.msg, Kind: KindExpr}
		}
		if c != nil {
			c.programs[code] = p
		}
	}
	if c != nil {
		for _, r := range p.stageRefs {
			c.refs = append(c.refs, StageRef{ID: r.id, Pos: at(r.off)})
		}
	}
	return &Expr{Src: strings.TrimSpace(code), Pos: at(exprLeadingSpace(code)), prog: p.prog, roots: p.roots}, nil
}

// lookup returns the program of code when c compiled it before.
func (c *Compiler) lookup(code string) (program, bool) {
	if c == nil {
		return program{}, false
	}
	p, ok := c.programs[code]
	return p, ok
}

// fault is why an expression does not compile, at rune offset off of its text.
type fault struct {
	off int
	msg string
}

// compileConfig returns the options to compile with: c's, or new ones for the nil
// Compiler.
func (c *Compiler) compileConfig() *conf.Config {
	if c == nil {
		return newCompileConfig()
	}
	if c.config == nil {
		c.config = newCompileConfig()
	}
	return c.config
}

// build compiles code with config as expr.Compile does, but parses it once: the same
// tree serves the check of names, the roots and the compiler.
func build(code string, config *conf.Config) (program, *fault) {
	end := len([]rune(code))
	rw := rewrite(code)
	text := string(rw.text)
	tree, err := parser.ParseWithConfig(text, config)
	if err != nil {
		return program{}, compileFault(err, code, rw, end)
	}
	if ne := checkNames(text, tree); ne != nil {
		return program{}, &fault{off: rw.origin(ne.from, end), msg: ne.msg}
	}
	roots := exprRoots(tree)
	refs := exprStageRefs(tree)
	for i := range refs {
		refs[i].off = rw.origin(refs[i].off, end)
	}
	if _, err := new(checker.Checker).PatchAndCheck(tree, config); err != nil {
		return program{}, compileFault(err, code, rw, end)
	}
	if config.Optimize {
		if err := optimizer.Optimize(&tree.Node, config); err != nil {
			var fe *file.Error
			if errors.As(err, &fe) {
				err = fe.Bind(tree.Source)
			}
			return program{}, compileFault(err, code, rw, end)
		}
	}
	prog, err := compiler.Compile(tree, config)
	if err != nil {
		return program{}, compileFault(err, code, rw, end)
	}
	return program{prog: prog, roots: roots, stageRefs: refs}, nil
}

// newCompileConfig returns the options every expression is compiled with
// (compileEnv, nullPatch), set up as expr.Compile sets them up.
func newCompileConfig() *conf.Config {
	config := conf.CreateNew()
	// The builtin now() reads the machine's clock; the language's reads the event's (runEnv).
	for _, op := range []expr.Option{expr.Env(compileEnv), expr.Patch(nullPatch{}), expr.DisableBuiltin("now")} {
		op(config)
	}
	for name := range config.Disabled {
		delete(config.Builtins, name)
	}
	config.Check()
	return config
}

// compileFault says where in code (rewritten as rw, of end runes) the compiler's
// err lies, and what it means.
func compileFault(err error, code string, rw rewritten, end int) *fault {
	var fe *file.Error
	if !errors.As(err, &fe) {
		return &fault{off: 0, msg: lowerMessage(err.Error())}
	}
	if fe.Message == "unexpected token EOF" { // at the end of the text, not at its last token
		return &fault{off: len([]rune(strings.TrimRightFunc(code, unicode.IsSpace))), msg: "unexpected end of expression"}
	}
	return &fault{off: rw.origin(fe.From, end), msg: lowerMessage(fe.Message)}
}
