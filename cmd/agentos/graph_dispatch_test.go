package main

import (
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/search/chunk"
	"github.com/agentos-dev/agentos/search/codegraph"
	"github.com/agentos-dev/agentos/server/searchtool"
)

// A caller that reaches a concrete method only through an interface is
// listed with the interface's method it calls, "via Iface.M", and not as
// a call of the method itself.
func TestGraphCallersShowDispatch(t *testing.T) {
	g := codegraph.New()
	for p, src := range map[string]string{
		"store/store.go": `package store

type Getter interface{ Get(k string) string }

type Disk struct{}

func (d *Disk) Get(k string) string { return k }

func Direct(d *Disk) { d.Get("a") }

func Through(g Getter) { g.Get("b") }
`,
	} {
		fset, f, err := chunk.ParseGo(p, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		g.SetFile(codegraph.FromGo(p, fset, f, "example.com/app/store"))
	}
	w, err := g.Callers("Disk.Get", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	nodes := make([]searchtool.GraphNode, len(w.Nodes))
	for i, n := range w.Nodes {
		nodes[i] = searchtool.GraphNode{Symbol: n.Symbol.Display(), Kind: n.Symbol.Kind, Path: n.Symbol.Path,
			StartLine: n.Symbol.Line, Depth: n.Depth, Via: n.Via, CallLine: n.Line, Loose: n.Loose, Dispatch: n.Dispatch}
	}
	var b strings.Builder
	printGraph(&b, searchtool.Output{Symbol: &searchtool.GraphSymbol{Symbol: "store.Disk.Get", Path: "store/store.go", StartLine: 7},
		Callers: &nodes})
	out := b.String()
	for _, want := range []string{
		"store.Direct  store/store.go:9  (via store.Disk.Get, call at line 9)",
		"store.Through  store/store.go:11  (via store.Getter.Get, call at line 11, reaching store.Disk.Get through the interface)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("graph callers printed\n%s\nwithout %q", out, want)
		}
	}
}
