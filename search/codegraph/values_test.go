package codegraph

import (
	"fmt"
	"strings"
	"testing"
)

// mentions lists the symbols that name name as a value, each
// "Symbol@line".
func mentions(t *testing.T, g *Graph, name string) string {
	t.Helper()
	return callerList(t, g, name, func(n Node) bool { return n.Value })
}

// callerList lists the callers of name that keep accepts (all, when nil),
// one level up, each "Symbol@line".
func callerList(t *testing.T, g *Graph, name string, keep func(Node) bool) string {
	t.Helper()
	w, err := g.Callers(name, 1, 0)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var out []string
	for _, n := range w.Nodes {
		if keep == nil || keep(n) {
			out = append(out, fmt.Sprintf("%s@%d", n.Symbol.Display(), n.Line))
		}
	}
	return strings.Join(out, " ")
}

// A Go function or method passed, stored or returned rather than called is
// linked to where it is named, marked as a value: a handler registered in
// another file of the package, a method value, another package's function,
// a function in a table. A local of the same name is no mention, a function
// also called is linked once as a call, and neither call paths nor the use
// counts follow a mention.
func TestGoFunctionValues(t *testing.T) {
	g := New()
	g.SetFile(goFacts(t, "web/handlers.go", "example.com/app/web", `package web

import "example.com/app/auth"

type Server struct{}

func serveHome(w, r int) {}

func (s *Server) health(w, r int) {}

func logged(f func(int, int)) func(int, int) { return f }

func check(x int) bool { return auth.Allowed(x) }
`))
	g.SetFile(goFacts(t, "web/routes.go", "example.com/app/web", `package web

import (
	"net/http"

	"example.com/app/auth"
)

var table = map[string]func(int, int){"home": serveHome}

func Routes(mux *http.ServeMux, s *Server) {
	mux.HandleFunc("/", serveHome)
	mux.HandleFunc("/health", s.health)
	mux.HandleFunc("/login", logged(auth.Login))
	route := Route{Check: check}
	_ = route
}

type Route struct{ Check func(int) bool }

func shadow() {
	serveHome := func(w, r int) {}
	run(serveHome)
	auth := struct{ Login func(int, int) }{}
	run(auth.Login)
	check(1)
	run(check)
}

func run(f func(int, int)) {}
`))
	g.SetFile(goFacts(t, "auth/auth.go", "example.com/app/auth", `package auth

func Login(w, r int) {}

func Allowed(x int) bool { return x > 0 }
`))
	for name, want := range map[string]string{
		"serveHome":     "web.table@9 web.Routes@12",
		"Server.health": "web.Routes@13",
		"auth.Login":    "web.Routes@14",
		"check":         "web.Routes@15",
		"auth.Allowed":  "",
		"logged":        "",
	} {
		if got := mentions(t, g, name); got != want {
			t.Errorf("%s named as a value by %q, want %q", name, got, want)
		}
	}
	// shadow calls check and passes it: one link, a call.
	w, _ := g.Callees("shadow", 1, 0)
	if got := strings.Join(names(w.Nodes), " "); got != "web.run web.check" {
		t.Errorf("shadow links to %q, want web.run web.check", got)
	}
	for _, n := range w.Nodes {
		if n.Value {
			t.Errorf("shadow: %s marked as a value; it is called too", n.Symbol.Display())
		}
	}
	if paths, _, _ := g.Paths("Routes", "serveHome", 4, 5); len(paths) != 0 {
		t.Errorf("call paths follow a mention: %v", paths)
	}
	if u := g.Uses()["web/handlers.go"]["serveHome"]; u.Callers != 0 {
		t.Errorf("serveHome has %d callers counted; a mention is no call", u.Callers)
	}
	if st := g.Stats(); st.Values == 0 {
		t.Errorf("stats count no values: %+v", st)
	}
}

// In the other languages, a method of the enclosing class passed as this.m,
// self.m, this::m or Self::m, and a function of the same file passed by
// name, are linked as values; a name defined only in another file is not
// guessed at.
func TestFunctionValuesInOtherLanguages(t *testing.T) {
	g := chunkGraph(map[string]string{
		"src/view.ts": `export class View {
  mount(el: Element) {
    el.addEventListener('click', this.onClick)
    return rows.map(formatRow)
  }
  onClick() {}
}

function formatRow(r: string) { return r.trim() }
`,
		"src/other.ts": `export function render(xs: string[]) {
  return xs.map(formatRow)
}
`,
		"src/main/java/app/Jobs.java": `package app;

class Jobs {
    void runAll(java.util.List<String> names) {
        names.forEach(this::run);
    }

    void run(String name) {}
}
`,
		"src/lines.rs": `struct Parser;

impl Parser {
    fn all(text: &str) -> Vec<u32> {
        text.lines().map(Self::parse).collect()
    }

    fn parse(line: &str) -> u32 { 0 }
}
`,
		"app/sorting.py": `class Table:
    def sort(self, rows):
        return sorted(rows, key=self.by_name)

    def by_name(self, row):
        return row.name
`,
	})
	for name, want := range map[string]string{
		"View.onClick":  "view.View.mount@3",
		"formatRow":     "view.View.mount@4",
		"Table.by_name": "sorting.Table.sort@3",
		"Jobs.run":      "Jobs.Jobs.runAll@5",
		"Parser.parse":  "lines.Parser.all@5",
	} {
		if got := mentions(t, g, name); got != want {
			t.Errorf("%s named as a value by %q, want %q", name, got, want)
		}
	}
}
