package codegraph

import "go/ast"

// stdInterfaces are the methods of the standard library's interfaces that
// the project's interfaces most often embed (type WriteSyncer interface {
// io.Writer; Sync() error }), with their arities (Def.Arity: parameters
// plus one). The graph holds no symbol of another module, so without them
// such an interface's method set would be only its own methods, and every
// type with a Sync would seem to implement it. Keyed by package path and
// name ("error" for the predeclared one).
var stdInterfaces = map[string]map[string]int16{
	"error":                      {"Error": 1},
	"fmt.Stringer":               {"String": 1},
	"fmt.GoStringer":             {"GoString": 1},
	"fmt.Formatter":              {"Format": 3},
	"io.Reader":                  {"Read": 2},
	"io.Writer":                  {"Write": 2},
	"io.Closer":                  {"Close": 1},
	"io.Seeker":                  {"Seek": 3},
	"io.ReadCloser":              {"Read": 2, "Close": 1},
	"io.WriteCloser":             {"Write": 2, "Close": 1},
	"io.ReadWriter":              {"Read": 2, "Write": 2},
	"io.ReadWriteCloser":         {"Read": 2, "Write": 2, "Close": 1},
	"io.ReadSeeker":              {"Read": 2, "Seek": 3},
	"io.ReadSeekCloser":          {"Read": 2, "Seek": 3, "Close": 1},
	"io.WriteSeeker":             {"Write": 2, "Seek": 3},
	"io.ReaderAt":                {"ReadAt": 3},
	"io.WriterAt":                {"WriteAt": 3},
	"io.ReaderFrom":              {"ReadFrom": 2},
	"io.WriterTo":                {"WriteTo": 2},
	"io.StringWriter":            {"WriteString": 2},
	"io.ByteReader":              {"ReadByte": 1},
	"io.ByteWriter":              {"WriteByte": 2},
	"io.RuneReader":              {"ReadRune": 1},
	"sort.Interface":             {"Len": 1, "Less": 3, "Swap": 3},
	"sync.Locker":                {"Lock": 1, "Unlock": 1},
	"flag.Value":                 {"String": 1, "Set": 2},
	"encoding.TextMarshaler":     {"MarshalText": 1},
	"encoding.TextUnmarshaler":   {"UnmarshalText": 2},
	"encoding.BinaryMarshaler":   {"MarshalBinary": 1},
	"encoding.BinaryUnmarshaler": {"UnmarshalBinary": 2},
	"encoding/json.Marshaler":    {"MarshalJSON": 1},
	"encoding/json.Unmarshaler":  {"UnmarshalJSON": 2},
	"net/http.Handler":           {"ServeHTTP": 3},
	"net/http.RoundTripper":      {"RoundTrip": 2},
	"net.Listener":               {"Accept": 1, "Close": 1, "Addr": 1},
	"hash.Hash":                  {"Write": 2, "Sum": 2, "Reset": 1, "Size": 1, "BlockSize": 1},
}

// goMethodSet returns every method of a Go interface of the project: its
// own, those of the project's interfaces it embeds and of the standard
// library's it embeds (stdInterfaces). It is not complete, and ok is
// false, when the interface embeds another module's interface not in
// stdInterfaces: no type can be said to implement it.
func (d *derived) goMethodSet(iface int32) (methods []Def, ok bool) {
	seen := map[int32]bool{}
	methods = d.methodSet(iface, seen)
	for i := range seen {
		s := d.syms[i]
		base := d.byFile[s.f.Path]
		for _, r := range s.f.Calls {
			if !r.Embeds || base+r.From != i {
				continue
			}
			key := ""
			switch {
			case r.Pkg == 0 && universe[r.Name]:
				key = r.Name
			case r.Pkg != 0 && !d.isProject(s.f.pkgOf(r)):
				key = s.f.pkgOf(r) + "." + r.Name
			default:
				continue // the project's, in methods already
			}
			std, known := stdInterfaces[key]
			if !known {
				return nil, false
			}
			for name, a := range std {
				methods = append(methods, Def{Name: name, Kind: "method", Iface: true, Arity: a})
			}
		}
	}
	return methods, true
}

// stdMethod reports whether the Go type t gets a method from a standard
// library interface it embeds, or one a type it embeds does: a struct
// embedding io.Writer has Write.
func (d *derived) stdMethod(t int32, name string, arity int16) bool {
	seen := map[int32]bool{}
	level := []int32{t}
	for depth := 0; depth <= maxEmbedDepth && len(level) > 0; depth++ {
		var next []int32
		for _, x := range level {
			if seen[x] {
				continue
			}
			seen[x] = true
			for _, k := range d.stdEmbeds[x] {
				if a, ok := stdInterfaces[k][name]; ok && (arity == 0 || a == arity) {
					return true
				}
			}
			next = append(next, d.embedded[x]...)
		}
		level = next
	}
	return false
}

// sameShape reports whether two Go methods have the same numbers of
// parameters and results, where both are known: the part of a signature's
// check that needs no type checker.
func sameShape(a, b *Def) bool {
	return (a.Arity == 0 || b.Arity == 0 || a.Arity == b.Arity) && (a.Outs == 0 || b.Outs == 0 || a.Outs == b.Outs)
}

// samePackageOnly reports whether an interface's methods include an
// unexported one, which only a type of the interface's own package can
// have.
func samePackageOnly(methods []Def) bool {
	for _, m := range methods {
		if !ast.IsExported(m.Name) {
			return true
		}
	}
	return false
}
