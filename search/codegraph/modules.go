package codegraph

import (
	"path"
	"regexp"
	"strings"
)

// Binding is a name a TypeScript, JavaScript or Python file binds to what
// another module exports, or a name it exports: what makes a call of an
// imported function (add() after import { add } from './util', ops.mul()
// after import * as ops, from pkg.util import add) go to that function
// exactly, where matching the name alone picks any function so named, or
// gives up when there are two.
type Binding struct {
	// Local is the name in this file ("ops", "tw"); for an export, the
	// name other files import ("default" for the default export), "" for
	// export * from.
	Local string
	// Module is the module as the code names it ("./util", "../math",
	// "pkg.util", ".util"), "" for a name of this file exported under
	// another (export { helper as h }, export default helper).
	Module string
	// Name is the name in Module ("add", "default"), or "*" for the module
	// itself (import * as ns, import a.b as m, export * from).
	Name string
	// Export marks a name this file exports rather than imports.
	Export bool
}

var (
	// import a, { b as c, type D } from './x'; import * as ns from './x'.
	// From a line's start, so that a comment's or a string's text is not
	// read; the clause may span lines.
	reTSImportFrom = regexp.MustCompile(`(?m)^[ \t]*import\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"\n]+)['"]`)
	// export { a as b } from './x'; export * from './x'; export * as ns from './x'.
	reTSExportFrom = regexp.MustCompile(`(?m)^[ \t]*export\s+(type\s+)?(\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*['"]([^'"\n]+)['"]`)
	// export { a, b as c } (of this file's names).
	reTSExportList = regexp.MustCompile(`(?m)^[ \t]*export\s+(type\s+)?\{([^}]*)\}\s*(;|$|\n)`)
	// export default name; export default function name; export default class name.
	reTSExportDefault = regexp.MustCompile(`(?m)^[ \t]*export\s+default\s+(?:(?:async\s+)?function\s*\*?\s*|(?:abstract\s+)?class\s+)?([A-Za-z_$][\w$]*)\s*(;|$|\n|\(|<|\{|extends\b|implements\b)`)
	// const { a, b: c } = require('./x'); const x = require('./x').
	reRequire = regexp.MustCompile(`(?:const|let|var)\s+(\{[^}]*\}|[A-Za-z_$][\w$]*)\s*=\s*require\(\s*['"]([^'"\n]+)['"]\s*\)`)
	// from a.b import c as d, e; from . import x; from .m import (a, b).
	rePyFromImport = regexp.MustCompile(`(?m)^[ \t]*from\s+(\.*[\w.]*)\s+import\s+(\([^)]*\)|[^\n]+)`)
	// import a.b as m, c.
	rePyImport = regexp.MustCompile(`(?m)^[ \t]*import\s+([^\n]+)`)
	reName     = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)
)

// tsBindings reads the imports and exports of a TypeScript or JavaScript
// file from its source: specifiers are strings, which the code-only text
// blanks.
func tsBindings(src string) []Binding {
	var out []Binding
	for _, m := range reTSImportFrom.FindAllStringSubmatch(src, -1) {
		// import type { Context }: not called, but the class of a
		// parameter typed with it.
		mod, clause := m[3], strings.TrimSpace(m[2])
		if strings.Contains(clause, "\n\n") || strings.Contains(clause, "import") {
			continue // not one import statement
		}
		if def, rest, _ := strings.Cut(clause, ","); !strings.HasPrefix(clause, "{") && !strings.HasPrefix(clause, "*") {
			if def = strings.TrimSpace(def); reName.MatchString(def) {
				out = append(out, Binding{Local: def, Module: mod, Name: "default"})
			}
			clause = strings.TrimSpace(rest)
		}
		switch {
		case strings.HasPrefix(clause, "*"):
			if _, ns, ok := strings.Cut(clause, " as "); ok && reName.MatchString(strings.TrimSpace(ns)) {
				out = append(out, Binding{Local: strings.TrimSpace(ns), Module: mod, Name: "*"})
			}
		case strings.HasPrefix(clause, "{"):
			for _, p := range specifiers(clause) {
				out = append(out, Binding{Local: p[1], Module: mod, Name: p[0]})
			}
		}
	}
	for _, m := range reTSExportFrom.FindAllStringSubmatch(src, -1) {
		if m[1] != "" {
			continue
		}
		mod, clause := m[3], m[2]
		if strings.HasPrefix(clause, "*") {
			ns := ""
			if _, as, ok := strings.Cut(clause, " as "); ok {
				ns = strings.TrimSpace(as)
			}
			out = append(out, Binding{Local: ns, Module: mod, Name: "*", Export: true})
			continue
		}
		for _, p := range specifiers(clause) {
			out = append(out, Binding{Local: p[1], Module: mod, Name: p[0], Export: true})
		}
	}
	for _, m := range reTSExportList.FindAllStringSubmatch(src, -1) {
		if m[1] != "" {
			continue
		}
		for _, p := range specifiers("{" + m[2] + "}") {
			if p[0] != p[1] {
				out = append(out, Binding{Local: p[1], Name: p[0], Export: true})
			}
		}
	}
	for _, m := range reTSExportDefault.FindAllStringSubmatch(src, -1) {
		if m[1] != "default" {
			out = append(out, Binding{Local: "default", Name: m[1], Export: true})
		}
	}
	for _, m := range reRequire.FindAllStringSubmatch(src, -1) {
		if strings.HasPrefix(m[1], "{") {
			for _, p := range specifiers(strings.ReplaceAll(m[1], ":", " as ")) {
				out = append(out, Binding{Local: p[1], Module: m[2], Name: p[0]})
			}
			continue
		}
		out = append(out, Binding{Local: m[1], Module: m[2], Name: "*"})
	}
	return out
}

// specifiers splits "{ a, b as c, type D }" into {name, local} pairs.
func specifiers(clause string) [][2]string {
	clause = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(clause), "{"), "}")
	var out [][2]string
	for _, s := range strings.Split(clause, ",") {
		f := strings.Fields(s)
		if len(f) > 1 && f[0] == "type" {
			f = f[1:] // import { type X }: a class, as import type is
		}
		switch {
		case len(f) == 1 && reName.MatchString(f[0]):
			out = append(out, [2]string{f[0], f[0]})
		case len(f) == 3 && f[1] == "as" && reName.MatchString(f[2]):
			out = append(out, [2]string{strings.Trim(f[0], `'"`), f[2]})
		}
	}
	return out
}

// pyBindings reads a Python file's imports from its code (comments and
// strings blanked: a docstring's example is no import).
func pyBindings(code string) []Binding {
	var out []Binding
	for _, m := range rePyFromImport.FindAllStringSubmatch(code, -1) {
		mod := m[1]
		list := strings.Trim(strings.TrimSpace(m[2]), "()")
		list, _, _ = strings.Cut(list, "#")
		for _, s := range strings.Split(list, ",") {
			f := strings.Fields(strings.TrimSuffix(strings.TrimSpace(s), "\\"))
			switch {
			case len(f) == 1 && reName.MatchString(f[0]) && f[0] != "*":
				out = append(out, Binding{Local: f[0], Module: mod, Name: f[0]})
			case len(f) == 3 && f[1] == "as":
				out = append(out, Binding{Local: f[2], Module: mod, Name: f[0]})
			}
		}
	}
	for _, m := range rePyImport.FindAllStringSubmatch(code, -1) {
		for _, s := range strings.Split(m[1], ",") {
			f := strings.Fields(s)
			switch {
			case len(f) == 1:
				out = append(out, Binding{Local: f[0], Module: f[0], Name: "*"})
			case len(f) == 3 && f[1] == "as":
				out = append(out, Binding{Local: f[2], Module: f[0], Name: "*"})
			}
		}
	}
	return out
}

// tsExts are the files an extensionless TypeScript or JavaScript import
// may name, in the order the compiler tries them.
var tsExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs"}

// moduleFile returns the project file a module named in file f resolves
// to: a relative TypeScript or JavaScript specifier with or without its
// extension (./a.js naming a.ts too) or naming a folder's index; a Python
// module, absolute (searched from f's folder up to the project's root) or
// relative (.m, ..m). A package the project does not hold resolves to
// nothing. Answers are kept for the graph's life: a barrel file's
// `export * from` list is walked for every name imported through it, and
// joining and cleaning the paths again each time was most of resolving
// mobx's graph.
func (d *derived) moduleFile(f *FileFacts, mod string) (*FileFacts, bool) {
	key := moduleKey{path.Dir(f.Path), f.Language == "python", mod}
	if v, ok := d.modules.Load(key); ok {
		ff := v.(*FileFacts)
		return ff, ff != nil
	}
	ff, _ := d.findModuleFile(f, mod)
	d.modules.Store(key, ff)
	return ff, ff != nil
}

// moduleKey is what a module's resolution depends on: the importing file's
// folder, its language and the name.
type moduleKey struct {
	dir    string
	python bool
	mod    string
}

func (d *derived) findModuleFile(f *FileFacts, mod string) (*FileFacts, bool) {
	if f.Language == "python" {
		return d.pyModuleFile(f, mod)
	}
	if !strings.HasPrefix(mod, "./") && !strings.HasPrefix(mod, "../") && mod != "." && mod != ".." {
		return nil, false
	}
	p := path.Join(path.Dir(f.Path), mod)
	if ff, ok := d.files[p]; ok {
		return ff, true
	}
	stem := p
	switch ext := path.Ext(p); ext {
	case ".js", ".jsx", ".mjs", ".cjs":
		stem = strings.TrimSuffix(p, ext) // import './a.js' of a.ts
	}
	for _, base := range []string{stem, p + "/index"} {
		for _, ext := range tsExts {
			if ff, ok := d.files[base+ext]; ok {
				return ff, true
			}
		}
	}
	return nil, false
}

// pyModuleFile resolves a Python module name (see moduleFile).
func (d *derived) pyModuleFile(f *FileFacts, mod string) (*FileFacts, bool) {
	find := func(dir, rel string) (*FileFacts, bool) {
		p := path.Join(dir, strings.ReplaceAll(rel, ".", "/"))
		if rel == "" {
			p = dir
		}
		if ff, ok := d.files[p+".py"]; ok && rel != "" {
			return ff, true
		}
		ff, ok := d.files[path.Join(p, "__init__.py")]
		return ff, ok
	}
	if dots := len(mod) - len(strings.TrimLeft(mod, ".")); dots > 0 {
		dir := path.Dir(f.Path)
		for range dots - 1 {
			dir = path.Dir(dir)
		}
		return find(dir, mod[dots:])
	}
	for dir := path.Dir(f.Path); ; dir = path.Dir(dir) {
		if ff, ok := find(dir, mod); ok {
			return ff, true
		}
		if dir == "." || dir == "/" || dir == "" {
			return nil, false
		}
	}
}

// maxExportDepth bounds the re-exports followed from one import, against
// cycles (a barrel re-exporting a barrel re-exporting the first).
const maxExportDepth = 8

// exported returns the symbol file f gives other modules under name: its
// own top-level definition, one it exports under another name or as its
// default, one it imports and passes on, one it re-exports from another
// module (export { x } from, export * from), or, for Python, a submodule's
// namespace (from . import util). ns is set when name is a module rather
// than a symbol.
func (d *derived) exported(f *FileFacts, name string, want func(*Def) bool, depth int) (sym int32, ns *FileFacts, ok bool) {
	if depth > maxExportDepth {
		return 0, nil, false
	}
	if name != "default" {
		if i, ok := d.topLevel(f, name, want); ok {
			return i, nil, true
		}
	}
	for _, b := range f.Bindings {
		if b.Local != name || b.Local == "" {
			continue
		}
		switch {
		case b.Export && b.Module == "": // export { helper as h }, export default helper
			if b.Name != name {
				return d.exported(f, b.Name, want, depth+1)
			}
		case b.Module != "":
			// export { x } from './a', or import { x } from './a' passed on.
			return d.follow(f, b, want, depth+1)
		}
	}
	if name == "default" {
		if i, ok := d.topLevel(f, "default", want); ok {
			return i, nil, true
		}
	}
	for _, b := range f.Bindings {
		if b.Export && b.Local == "" && b.Name == "*" && name != "default" { // export * from './ops'
			if to, ok := d.moduleFile(f, b.Module); ok {
				if i, ns, ok := d.exported(to, name, want, depth+1); ok {
					return i, ns, true
				}
			}
		}
	}
	if f.Language == "python" && path.Base(f.Path) == "__init__.py" {
		if sub, ok := d.pyModuleFile(f, "."+name); ok { // from . import util
			return 0, sub, true
		}
	}
	return 0, nil, false
}

// follow resolves a binding of file f to the symbol, or module, it names.
func (d *derived) follow(f *FileFacts, b Binding, want func(*Def) bool, depth int) (int32, *FileFacts, bool) {
	to, ok := d.moduleFile(f, b.Module)
	if !ok {
		if f.Language == "python" && b.Name != "*" { // from pkg import sub: a submodule
			if sub, ok := d.pyModuleFile(f, b.Module+"."+b.Name); ok {
				return 0, sub, true
			}
		}
		return 0, nil, false
	}
	if b.Name == "*" {
		return 0, to, true
	}
	return d.exported(to, b.Name, want, depth)
}

// topLevel returns file f's only top-level definition named name that
// want accepts (a function or a variable that may hold one, for a call; a
// class, for a type): a file may declare a type and a constant of one name.
func (d *derived) topLevel(f *FileFacts, name string, want func(*Def) bool) (int32, bool) {
	base, ok := d.byFile[f.Path]
	if !ok {
		return 0, false
	}
	found := int32(-1)
	for k := range f.Symbols {
		s := &f.Symbols[k]
		if s.Name != name || s.Recv != "" || !want(s) {
			continue
		}
		if found >= 0 {
			return 0, false
		}
		found = base + int32(k)
	}
	return found, found >= 0
}

// binding returns the binding of a name f imports, if any.
func (f *FileFacts) binding(local string) (Binding, bool) {
	for _, b := range f.Bindings {
		if !b.Export && b.Local == local {
			return b, true
		}
	}
	return Binding{}, false
}

// resolveImported resolves a call of a TypeScript, JavaScript or Python
// file through what it imports or defines at its top level: name() of an
// imported function or of the file's own, ns.name() of a namespace
// imported (import * as ns, import a.b as m, from . import util, import
// a.b then a.b.name()). ok is false when the call is not of such a name or
// names nothing the project holds (a package's function): it is then
// matched by name, loosely, as any call.
func (d *derived) resolveImported(f *FileFacts, r Ref) (int32, bool) {
	want := func(s *Def) bool { return isCallable(s) || isVariable(s) }
	if r.Recv == "" {
		if b, bound := f.binding(r.Name); bound {
			i, ns, ok := d.follow(f, b, want, 0)
			return i, ok && ns == nil
		}
		if i, ok := d.topLevel(f, r.Name, want); ok && isCallable(d.syms[i].def()) {
			return i, true
		}
		return 0, false
	}
	// ns.name(): the receiver a namespace imported, or, in Python, a
	// dotted module path whose first part is bound (import a, then
	// a.b.f()).
	var mod *FileFacts
	if b, bound := f.binding(r.Recv); bound {
		_, ns, ok := d.follow(f, b, want, 0)
		if !ok || ns == nil {
			return 0, false
		}
		mod = ns
	} else if first, rest, dotted := strings.Cut(r.Recv, "."); dotted && f.Language == "python" {
		b, bound := f.binding(first)
		if !bound || b.Name != "*" {
			return 0, false
		}
		m, ok := d.pyModuleFile(f, b.Module+"."+rest)
		if !ok {
			return 0, false
		}
		mod = m
	} else {
		return 0, false
	}
	i, ns, ok := d.exported(mod, r.Name, want, 0)
	return i, ok && ns == nil
}

// importedClass returns the type a file imports under name (import type {
// Context } from './context'): a parameter typed Context is of that class,
// whatever other classes of that name the project has.
func (d *derived) importedClass(f *FileFacts, name string) (int32, bool) {
	b, ok := f.binding(name)
	if !ok || b.Name == "*" {
		return 0, false
	}
	i, ns, ok := d.follow(f, b, isType, 0)
	if !ok || ns != nil {
		return 0, false
	}
	return i, true
}
