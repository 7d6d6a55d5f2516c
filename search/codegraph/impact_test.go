package codegraph

import (
	"slices"
	"strings"
	"testing"
)

func impactGraph(t *testing.T) *Graph {
	g := New()
	g.SetFile(goFacts(t, "calc/calc.go", "example.com/calc", `package calc

func parse(s string) int { return len(s) }

func Eval(s string) int { return parse(s) * 2 }

func Run(s string) int { return Eval(s) + 1 }

func Unrelated() int { return 0 }
`))
	g.SetFile(goFacts(t, "calc/calc_test.go", "example.com/calc", `package calc

import "testing"

func mustRun(t *testing.T, s string) int { return Run(s) }

func TestRun(t *testing.T) { mustRun(t, "x") }

func TestEval(t *testing.T) { Eval("y") }

func TestUnrelated(t *testing.T) { Unrelated() }

func BenchmarkParse(b *testing.B) { parse("z") }
`))
	return g
}

func TestImpactNamesTestsWithTheirPath(t *testing.T) {
	g := impactGraph(t)
	changed := g.SymbolsIn("calc/calc.go", []LineRange{{3, 3}})
	if len(changed) != 1 || changed[0].Name != "parse" {
		t.Fatalf("changed = %+v, want parse", changed)
	}
	im := g.Impact(changed, ImpactOptions{})
	var callers []string
	for _, c := range im.Callers {
		callers = append(callers, c.Symbol.Name)
	}
	if !slices.Equal(callers, []string{"Eval", "Run"}) {
		t.Errorf("callers = %v, want [Eval Run]", callers)
	}
	tests := map[string]Reach{}
	for _, r := range im.Tests {
		tests[r.Symbol.Name] = r
	}
	if len(tests) != 3 {
		t.Fatalf("tests = %+v, want TestRun, TestEval, BenchmarkParse", im.Tests)
	}
	if r := tests["TestRun"]; strings.Join(r.Why, " > ") != "calc.TestRun > calc.mustRun > calc.Run > calc.Eval > calc.parse" || r.Depth != 4 || r.Loose {
		t.Errorf("TestRun reached as %+v", r)
	}
	if _, ok := tests["mustRun"]; ok {
		t.Error("a test helper is named as a test")
	}
	if _, ok := tests["TestUnrelated"]; ok {
		t.Error("a test that does not reach the change is named")
	}
	// A depth too short for the helper's chain leaves TestRun out.
	im = g.Impact(changed, ImpactOptions{Depth: 1, TestDepth: 3})
	for _, r := range im.Tests {
		if r.Symbol.Name == "TestRun" {
			t.Errorf("TestRun named at test depth 3: %+v", r)
		}
	}
	if len(im.Callers) != 1 {
		t.Errorf("callers at depth 1 = %+v", im.Callers)
	}
}

func TestImpactBoundsItsLists(t *testing.T) {
	g := impactGraph(t)
	im := g.Impact(g.SymbolsIn("calc/calc.go", []LineRange{{3, 3}}), ImpactOptions{Limit: 1, TestLimit: 1})
	if len(im.Callers) != 1 || !im.CallersTruncated || len(im.Tests) != 1 || !im.TestsTruncated {
		t.Errorf("bounded impact = %+v", im)
	}
}

func TestSymbolsInSpansAndContainers(t *testing.T) {
	g := impactGraph(t)
	got := g.SymbolsIn("calc/calc.go", []LineRange{{3, 7}, {9, 9}, {1, 1}})
	var names []string
	for _, s := range got {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"parse", "Eval", "Run", "Unrelated"}) {
		t.Errorf("SymbolsIn = %v", names)
	}
	if got := g.SymbolsIn("nope.go", []LineRange{{1, 1}}); got != nil {
		t.Errorf("unknown file: %v", got)
	}
	if len(g.SymbolsOf("calc/calc_test.go")) != 5 {
		t.Errorf("SymbolsOf = %v", g.SymbolsOf("calc/calc_test.go"))
	}
}

func TestImpactOfAChangedTestNamesIt(t *testing.T) {
	g := impactGraph(t)
	im := g.Impact(g.SymbolsIn("calc/calc_test.go", []LineRange{{9, 9}}), ImpactOptions{})
	if len(im.Tests) != 1 || im.Tests[0].Symbol.Name != "TestEval" || im.Tests[0].Depth != 0 || len(im.Callers) != 0 {
		t.Errorf("impact of a changed test = %+v", im)
	}
}

// The calls the standard library makes: fmt calling an error's Error or a
// value's String, encoding/json its MarshalText, errors.Is its Unwrap,
// and a call through fmt.Stringer. Which tests fail when each method is
// broken was checked by running them (go test) on this code as a module.
func implicitGraph(t *testing.T) *Graph {
	g := New()
	g.SetFile(goFacts(t, "e/e.go", "example.com/e", `package e

import "fmt"

type wrapped struct {
	msg   string
	cause error
}

func (w *wrapped) Error() string { return w.msg + ": " + w.cause.Error() }

func (w *wrapped) Unwrap() error { return w.cause }

type plain struct{ msg string }

func (p *plain) Error() string { return p.msg }

func New(msg string) error { return &plain{msg} }

func Wrap(err error, msg string) error { return &wrapped{msg, err} }

type Level int

func (l Level) String() string { return fmt.Sprint(int(l)) }

type ID [2]byte

func (id ID) MarshalText() ([]byte, error) { return []byte{id[0], id[1]}, nil }

func Parse(s string) ID { return ID{s[0], s[1]} }

func Unused() int { return 0 }
`))
	g.SetFile(goFacts(t, "e/e_test.go", "example.com/e", `package e

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

func fixture() error { return Wrap(New("inner"), "outer") }

func check(t *testing.T, got any, want string) {
	if s := fmt.Sprint(got); s != want {
		t.Errorf("got %q", s)
	}
}

func TestFormat(t *testing.T) { check(t, fixture(), "outer: inner") }

func TestIs(t *testing.T) {
	inner := New("inner")
	if !errors.Is(Wrap(inner, "x"), inner) {
		t.Fatal("not found")
	}
}

func TestLevel(t *testing.T) {
	var s fmt.Stringer = Level(3)
	if s.String() != "3" {
		t.Fatal("bad level")
	}
}

func TestJSON(t *testing.T) {
	type S struct{ A ID }
	b, _ := json.Marshal(S{A: Parse("ab")})
	if string(b) != `+"`"+`{"A":"ab"}`+"`"+` {
		t.Fatal(string(b))
	}
}

func TestUnused(t *testing.T) { Unused() }
`))
	return g
}

func TestImpactFollowsTheStandardLibrarysCalls(t *testing.T) {
	g := implicitGraph(t)
	for _, c := range []struct {
		changed string
		tests   []string // the tests that fail when it is broken
	}{
		{"plain.Error", []string{"TestFormat"}},
		{"wrapped.Error", []string{"TestFormat"}},
		{"wrapped.Unwrap", []string{"TestIs"}},
		{"Level.String", []string{"TestLevel"}},
		{"ID.MarshalText", []string{"TestJSON"}},
	} {
		s, err := g.Lookup(c.changed)
		if err != nil {
			t.Fatal(err)
		}
		im := g.Impact([]Symbol{s}, ImpactOptions{})
		named := map[string]Reach{}
		for _, r := range im.Tests {
			named[r.Symbol.Name] = r
		}
		for _, want := range c.tests {
			r, ok := named[want]
			if !ok {
				t.Errorf("%s: %s not named; tests %+v", c.changed, want, im.Tests)
				continue
			}
			if !r.Inferred || len(r.Notes) == 0 || !strings.HasPrefix(r.Notes[len(r.Notes)-1], "inferred: ") {
				t.Errorf("%s: %s reached as %+v, want inferred with its notes", c.changed, want, r)
			}
		}
		if _, ok := named["TestUnused"]; ok {
			t.Errorf("%s: TestUnused named", c.changed)
		}
	}
	// A plain call stays exact, with no note.
	s, _ := g.Lookup("Parse")
	for _, r := range g.Impact([]Symbol{s}, ImpactOptions{}).Tests {
		if r.Symbol.Name == "TestJSON" && (r.Inferred || len(r.Notes) > 0) {
			t.Errorf("TestJSON reaches Parse as %+v", r)
		}
	}
}
