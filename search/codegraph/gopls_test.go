package codegraph

import (
	"bufio"
	"cmp"
	"fmt"
	"go/ast"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/search/chunk"
)

// goModule is a Go module's graph, read the way indexing reads it, with
// the columns of its declarations' names (gopls asks for a position).
type goModule struct {
	root string
	g    *Graph
	cols map[string]int // "path:line:Name" -> column of the name
}

// loadGoModule reads every .go file under root (outside vendor, testdata
// and hidden folders), each with its folder's import path under the
// module's.
func loadGoModule(t *testing.T, root string) *goModule {
	t.Helper()
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatalf("reading the module's go.mod: %v", err)
	}
	modPath := ""
	for line := range strings.SplitSeq(string(mod), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			modPath = strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	m := &goModule{root: root, g: New(), cols: map[string]int{}}
	err = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := e.Name()
		if e.IsDir() {
			if p != root && (name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && p != root {
				return filepath.SkipDir // another module
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		fset, f, err := chunk.ParseGo(rel, src)
		if err != nil {
			return nil // as indexing does: a file that does not parse has no facts
		}
		pkg := modPath
		if dir := filepath.ToSlash(filepath.Dir(rel)); dir != "." {
			pkg += "/" + dir
		}
		m.g.SetFile(FromGo(rel, fset, f, pkg))
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				pos := fset.Position(d.Name.Pos())
				m.cols[fmt.Sprintf("%s:%d:%s", rel, fset.Position(d.Pos()).Line, d.Name.Name)] = pos.Column
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					if ts, ok := sp.(*ast.TypeSpec); ok {
						pos := fset.Position(ts.Name.Pos())
						m.cols[fmt.Sprintf("%s:%d:%s", rel, fset.Position(ts.Pos()).Line, ts.Name.Name)] = pos.Column
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("reading %s: %v", root, err)
	}
	return m
}

// at returns the symbol whose declaration holds a line of a file, the
// innermost: a call in a function literal is its function's.
func (m *goModule) at(path string, line int) (Symbol, bool) {
	d := m.g.get()
	start, ok := d.byFile[path]
	if !ok {
		return Symbol{}, false
	}
	best, found := Symbol{}, false
	for k, s := range d.syms[start].f.Symbols {
		if int(s.Line) <= line && line <= int(s.EndLine) && (!found || int(s.Line) >= best.Line) && s.Kind != "type" {
			best, found = d.syms[start].f.symbol(k), true
		}
	}
	return best, found
}

// key names a symbol in a reference answer.
func key(s Symbol) string { return s.Display() }

// query names a symbol to the graph's queries, unambiguously: its file
// and its receiver's or package's name.
func query(s Symbol) string {
	if s.Recv == "" {
		return s.Path + ":" + s.PkgName + "." + s.Name
	}
	return s.Path + ":" + s.Qualified()
}

// goplsCaller is one caller gopls lists: the symbol, and whether some call
// of it is static (to the method itself) or through an interface.
type goplsCaller struct {
	static, dispatch bool
	// external: every call through an interface is through one of
	// another module (io.Closer), which the graph does not link.
	external bool
}

var reGoplsCaller = regexp.MustCompile(`^caller\[\d+\]: ranges (.+) in (\S+) from/to \S+ \S+ in \S+$`)

// gopls runs a gopls command in the module's folder.
func (m *goModule) gopls(t *testing.T, bin string, args ...string) string {
	t.Helper()
	if r := os.Getenv("AGENTOS_GOPLS_REMOTE"); r != "" {
		args = append([]string{"-remote=" + r}, args...)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = m.root
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Logf("gopls %s: %v: %s", strings.Join(args, " "), err, stderr.String())
		return ""
	}
	return string(out)
}

// goplsCallers asks gopls's call hierarchy for the callers of the function
// or method s, and its definitions for each call, to tell a static call
// from one through an interface.
func (m *goModule) goplsCallers(t *testing.T, bin string, s Symbol) map[string]goplsCaller {
	col := m.cols[fmt.Sprintf("%s:%d:%s", s.Path, s.Line, s.Name)]
	here := fmt.Sprintf("%s:%d:%d", filepath.Join(m.root, s.Path), s.Line, col)
	out := map[string]goplsCaller{}
	for line := range strings.SplitSeq(m.gopls(t, bin, "call_hierarchy", here), "\n") {
		mm := reGoplsCaller.FindStringSubmatch(line)
		if mm == nil {
			continue
		}
		file := mm[2]
		rel, err := filepath.Rel(m.root, file)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		rel = filepath.ToSlash(rel)
		for r := range strings.SplitSeq(mm[1], ", ") {
			lc, _, _ := strings.Cut(r, "-")
			ln, c, _ := strings.Cut(lc, ":")
			l, _ := strconv.Atoi(ln)
			caller, ok := m.at(rel, l)
			if !ok || key(caller) == key(s) {
				continue // the graph keeps no call of a function to itself
			}
			def := m.gopls(t, bin, "definition", fmt.Sprintf("%s:%s:%s", file, ln, c))
			c0 := out[key(caller)]
			switch {
			case strings.HasPrefix(def, fmt.Sprintf("%s:%d:%d-", filepath.Join(m.root, s.Path), s.Line, col)):
				c0.static = true
			case strings.HasPrefix(def, m.root+string(filepath.Separator)):
				c0.dispatch, c0.external = true, false
			case !c0.dispatch:
				c0.dispatch, c0.external = true, true
			}
			out[key(caller)] = c0
		}
	}
	return out
}

// goplsImpls asks gopls for the implementations of an interface: the
// project's concrete types (gopls lists interfaces too; the graph does not).
func (m *goModule) goplsImpls(t *testing.T, bin string, s Symbol) []string {
	col := m.cols[fmt.Sprintf("%s:%d:%s", s.Path, s.Line, s.Name)]
	here := fmt.Sprintf("%s:%d:%d", filepath.Join(m.root, s.Path), s.Line, col)
	var out []string
	d := m.g.get()
	for line := range strings.SplitSeq(m.gopls(t, bin, "implementation", here), "\n") {
		f, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		rel, err := filepath.Rel(m.root, f)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		rel = filepath.ToSlash(rel)
		ln, _, _ := strings.Cut(rest, ":")
		l, _ := strconv.Atoi(ln)
		start, ok := d.byFile[rel]
		if !ok {
			continue
		}
		for k, def := range d.syms[start].f.Symbols {
			if def.Kind == "type" && int(def.Line) == l && !def.Iface {
				out = append(out, key(d.syms[start].f.symbol(k)))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// graphCallers returns the graph's callers of s, one level: linked
// exactly, through an interface (dispatch) and by name. A function named as
// a value (passed, stored) counts as linked exactly, as gopls's call
// hierarchy lists it.
func (m *goModule) graphCallers(t *testing.T, s Symbol) (exact, dispatch, loose []string) {
	w, err := m.g.Callers(query(s), 1, MaxLimit)
	if err != nil {
		t.Fatalf("callers of %s: %v", key(s), err)
	}
	for _, n := range w.Nodes {
		switch {
		case n.Embeds:
		case n.Loose:
			loose = append(loose, key(n.Symbol))
		case n.Dispatch != "":
			dispatch = append(dispatch, key(n.Symbol))
		default:
			exact = append(exact, key(n.Symbol))
		}
	}
	slices.Sort(exact)
	slices.Sort(dispatch)
	slices.Sort(loose)
	return exact, dispatch, loose
}

// graphImpls returns the graph's implementations of an interface.
func (m *goModule) graphImpls(t *testing.T, s Symbol) []string {
	w, err := m.g.Implementations(query(s), MaxLimit)
	if err != nil {
		t.Fatalf("implementations of %s: %v", key(s), err)
	}
	var out []string
	for _, n := range w.Nodes {
		out = append(out, key(n.Symbol))
	}
	slices.Sort(out)
	return out
}

// targets returns the module's functions and methods with a body and its
// non-empty interfaces, outside tests, in path order; every step-th of
// each after the first.
func (m *goModule) targets(funcStep, ifaceStep int) (funcs, ifaces []Symbol) {
	d := m.g.get()
	var fs, is []Symbol
	for i, s := range d.syms {
		def := s.def()
		if s.f.Language != "go" || def.Test {
			continue
		}
		switch {
		case def.Kind == "type" && def.Iface:
			if d.methodSet(int32(i), map[int32]bool{}) != nil {
				is = append(is, s.symbol())
			}
		case (def.Kind == "func" || def.Kind == "method") && !def.Iface && def.Name != "init" && def.Name != "main" && def.Name != "_":
			fs = append(fs, s.symbol())
		}
	}
	for i := 0; i < len(fs); i += funcStep {
		funcs = append(funcs, fs[i])
	}
	for i := 0; i < len(is); i += ifaceStep {
		ifaces = append(ifaces, is[i])
	}
	return funcs, ifaces
}

// The reference answers of testdata/gotypes, one line each:
//
//	callers store.Base.Get exact=app.Promoted dispatch=app.Assert,app.Use other=
//	impls store.Getter store.Base,store.Disk,store.Mem
//
// gopls v0.23.0's call hierarchy and implementations, written by
// TestGoplsReference with AGENTOS_GOPLS_WRITE set.
const fixtureRef = "testdata/gotypes/gopls.txt"

// Every construct of the fixture module gets the callers and
// implementations gopls gives it: calls on a two-value type assertion's
// result and a type switch's variable, methods promoted from embedded
// structs and pointers (calls and method sets), range variables over
// slices, maps, channels and a call's result, locals from chains of
// fields, package-level variables, and the callers that reach a concrete
// method through an interface. A call on a standard library value reaches
// none of the fixture's methods of the same name.
func TestGoplsFixture(t *testing.T) {
	m := loadGoModule(t, "testdata/gotypes")
	f, err := os.Open(fixtureRef)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		s, err := m.g.Lookup(fields[1])
		if err != nil {
			t.Fatalf("%s: %v", fields[1], err)
		}
		n++
		switch fields[0] {
		case "callers":
			exact, dispatch, loose := m.graphCallers(t, s)
			got := fmt.Sprintf("exact=%s dispatch=%s", strings.Join(exact, ","), strings.Join(dispatch, ","))
			// other= lists the callers only through another module's
			// interface (io.Closer), which the graph does not link.
			if want := strings.Join(fields[2:min(4, len(fields))], " "); got != want {
				t.Errorf("callers of %s: %s, gopls: %s", fields[1], got, want)
			}
			if len(loose) > 0 {
				t.Errorf("callers of %s by name: %v", fields[1], loose)
			}
		case "impls":
			want := ""
			if len(fields) > 2 {
				want = fields[2]
			}
			if got := strings.Join(m.graphImpls(t, s), ","); got != want {
				t.Errorf("implementations of %s: %s, gopls: %s", fields[1], got, want)
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d reference answers in %s", n, fixtureRef)
	}
}

// TestGoplsReference measures the graph against gopls on a Go module: the
// precision and recall of its exact links (against gopls's static calls),
// the share of gopls's callers through an interface it lists, and the
// precision and recall of its implementations. It needs gopls and a
// module, so only AGENTOS_GOPLS_ROOT turns it on:
//
//	gopls serve -listen='unix;/tmp/gopls.sock' -listen.timeout=30m &
//	AGENTOS_GOPLS=/tmp/gopls-bin/gopls AGENTOS_GOPLS_REMOTE='unix;/tmp/gopls.sock' \
//	  AGENTOS_GOPLS_ROOT=/path/to/module go test ./search/codegraph -run GoplsReference -v -timeout 60m
//
// (AGENTOS_GOPLS_REMOTE, optional, shares one gopls's loaded packages
// among the hundreds of commands the test runs.)
// AGENTOS_GOPLS_STEP takes every n-th function and every (n/4)-th interface
// (default 1); AGENTOS_GOPLS_ONLY=impls asks only for implementations;
// AGENTOS_GOPLS_WRITE=file writes the answers as reference lines (how
// testdata/gotypes/gopls.txt was made).
func TestGoplsReference(t *testing.T) {
	root := os.Getenv("AGENTOS_GOPLS_ROOT")
	if root == "" {
		t.Skip("AGENTOS_GOPLS_ROOT not set")
	}
	bin := cmp.Or(os.Getenv("AGENTOS_GOPLS"), "gopls")
	step, _ := strconv.Atoi(os.Getenv("AGENTOS_GOPLS_STEP"))
	step = max(step, 1)
	m := loadGoModule(t, root)
	funcs, ifaces := m.targets(step, max(step/4, 1))
	if os.Getenv("AGENTOS_GOPLS_ONLY") == "impls" {
		funcs = nil
	}
	var ref []string
	var exactN, exactRight, staticN, staticFound, dispN, dispFound, dispOurs, dispRight, looseN, looseRight int
	var projN, projFound int // callers through the project's interfaces
	for _, s := range funcs {
		want := m.goplsCallers(t, bin, s)
		exact, dispatch, loose := m.graphCallers(t, s)
		var wantStatic, wantDispatch, wantOther []string
		for k, c := range want {
			if c.static {
				wantStatic = append(wantStatic, k)
				staticN++
				if slices.Contains(exact, k) || slices.Contains(dispatch, k) {
					staticFound++
				} else {
					t.Logf("missed: %s calls %s", k, key(s))
				}
			}
			if c.dispatch && !c.static {
				dispN++
				found := slices.Contains(dispatch, k) || slices.Contains(exact, k)
				if found {
					dispFound++
				}
				if c.external {
					wantOther = append(wantOther, k)
				} else {
					wantDispatch = append(wantDispatch, k)
					projN++
					if found {
						projFound++
					}
				}
				if !found {
					t.Logf("missed through an interface (another module's: %v): %s calls %s", c.external, k, key(s))
				}
			}
		}
		for _, k := range exact {
			exactN++
			if _, ok := want[k]; ok {
				exactRight++
			} else {
				t.Logf("wrong: %s calls %s", k, key(s))
			}
		}
		for _, k := range dispatch {
			dispOurs++
			if _, ok := want[k]; ok {
				dispRight++
			} else {
				t.Logf("wrong through an interface: %s calls %s", k, key(s))
			}
		}
		for _, k := range loose {
			looseN++
			if _, ok := want[k]; ok {
				looseRight++
			} else {
				t.Logf("wrong by name: %s calls %s", k, key(s))
			}
		}
		slices.Sort(wantStatic)
		slices.Sort(wantDispatch)
		slices.Sort(wantOther)
		ref = append(ref, fmt.Sprintf("callers %s exact=%s dispatch=%s other=%s", query(s), strings.Join(wantStatic, ","),
			strings.Join(wantDispatch, ","), strings.Join(wantOther, ",")))
	}
	var implN, implRight, implWant, implFound int
	for _, s := range ifaces {
		want := m.goplsImpls(t, bin, s)
		got := m.graphImpls(t, s)
		implWant += len(want)
		implN += len(got)
		for _, k := range got {
			if slices.Contains(want, k) {
				implRight++
			} else {
				t.Logf("wrong: %s implements %s", k, key(s))
			}
		}
		for _, k := range want {
			if slices.Contains(got, k) {
				implFound++
			} else {
				t.Logf("missed: %s implements %s", k, key(s))
			}
		}
		ref = append(ref, fmt.Sprintf("impls %s %s", query(s), strings.Join(want, ",")))
	}
	ratio := func(a, b int) string { return fmt.Sprintf("%d/%d = %.3f", a, b, float64(a)/float64(max(b, 1))) }
	t.Logf("%d functions and methods, %d interfaces", len(funcs), len(ifaces))
	t.Logf("exact links: precision %s, recall %s (gopls's static callers)", ratio(exactRight, exactN), ratio(staticFound, staticN))
	t.Logf("callers only through an interface: %s of gopls's listed; precision %s", ratio(dispFound, dispN), ratio(dispRight, dispOurs))
	t.Logf("callers only through the project's interfaces: %s of gopls's listed", ratio(projFound, projN))
	t.Logf("links by name: %s right", ratio(looseRight, looseN))
	t.Logf("implementations: precision %s, recall %s", ratio(implRight, implN), ratio(implFound, implWant))
	if w := os.Getenv("AGENTOS_GOPLS_WRITE"); w != "" {
		head := "# gopls v0.23.0's answers (exact: callers with a static call; dispatch: only through the module's interfaces; other: only through another module's)\n"
		if err := os.WriteFile(w, []byte(head+strings.Join(ref, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
