package search

import (
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// A query that is nothing but an identifier, maybe qualified, is a search
// for a symbol by name: its definitions rank before anything else, in every
// language, whether or not the other legs of the search found them (a name
// called from many places may lose its definition among the call sites).

// namedSymbol returns the query as a dotted name in lower case when it is
// nothing but an identifier, maybe qualified ("ParseConfig", "Cache.Evict",
// "snake_case_name", Rust's "Type::method", Javadoc's "Type#method", with or
// without a trailing "()"), or "".
func namedSymbol(text string) string {
	text = strings.TrimSuffix(strings.TrimSpace(text), "()")
	text = strings.NewReplacer("::", ".", "#", ".").Replace(text)
	for _, part := range strings.Split(text, ".") {
		if part == "" || strings.ContainsFunc(part, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '$'
		}) {
			return ""
		}
	}
	return strings.ToLower(text)
}

// spelledName returns the name a query of two to four plain words spells
// ("shortest path", "evict oldest"), in lower case without separators
// ("shortestpath"), or "": a person types a name as words as often as as an
// identifier, and the symbol named so (shortest_path, shortestPath) is then
// what they look for, before the longer names that contain the same words.
func spelledName(text string) string {
	words := strings.Fields(text)
	if len(words) < 2 || len(words) > 4 {
		return ""
	}
	for _, w := range words {
		if strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			return ""
		}
	}
	return strings.ToLower(strings.Join(words, ""))
}

// spells reports whether a chunk's own name, in lower case without
// underscores, is the name a query spells (spelledName).
func spells(m *meta, spelled string) bool {
	return m.Symbol != "" && strings.EqualFold(strings.ReplaceAll(baseName(m.Symbol), "_", ""), spelled)
}

// baseName is a symbol's own name: a method's without its receiver.
func baseName(symbol string) string { return symbol[strings.LastIndexByte(symbol, '.')+1:] }

// symbolNamed reports whether a chunk defines what a named-symbol query
// (from namedSymbol) names: its symbol itself ("Cache.Evict"), its own name
// ("evict" for every Evict method), its enclosing types' tail ("Inner.method"
// for "Outer.Inner.method"), or its symbol qualified by its package or module
// ("pkg.Func", "requests.Session.get").
func symbolNamed(m *meta, name string) bool {
	sym := m.Symbol
	// Every rule ends with the symbol's own name: the cheap test first.
	if sym == "" || !strings.EqualFold(baseName(sym), baseName(name)) {
		return false
	}
	if !strings.Contains(name, ".") || strings.EqualFold(sym, name) || endsWithName(sym, name) {
		return true
	}
	for k := 0; k < len(name); k++ {
		if name[k] == '.' && strings.EqualFold(sym, name[k+1:]) && qualifies(m.Path, name[:k]) {
			return true
		}
	}
	return false
}

// qualifies reports whether a dotted qualifier names the package or module
// of the file at p: the tail of its folder path ("http" or "net.http" for
// net/http/client.go) or of its module path ("api" or "requests.api" for
// src/requests/api.py).
func qualifies(p, qualifier string) bool {
	dir := strings.ReplaceAll(path.Dir(p), "/", ".")
	stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
	module := stem
	if dir != "." {
		module = dir + "." + stem
	}
	return dir != "." && endsWithName(dir, qualifier) || endsWithName(module, qualifier)
}

// endsWithName reports whether dotted name s is t or ends with "." + t,
// ignoring case.
func endsWithName(s, t string) bool {
	if len(s) == len(t) {
		return strings.EqualFold(s, t)
	}
	return len(s) > len(t) && s[len(s)-len(t)-1] == '.' && strings.EqualFold(s[len(s)-len(t):], t)
}

// symbolNames finds chunks by their symbol's own name, ignoring case. It
// keeps each symbol chunk as its name's hash and its id in one uint64:
// a sorted run, built by the first named-symbol query (a scan of every
// chunk per query costs about 100 ms at half a million chunks), and the
// chunks added since, which a lookup scans and merges into the run when
// they grow past an eighth of it. Removed chunks stay until the table is
// reset (by compaction); lookups skip them.
type symbolNames struct {
	mu     sync.Mutex
	built  bool
	sorted []uint64
	added  []uint64
}

func nameEntry(symbol string, id uint32) uint64 {
	return uint64(foldHash(baseName(symbol)))<<32 | uint64(id)
}

// reset forgets the table; the caller holds the index's write lock.
func (n *symbolNames) reset() {
	n.mu.Lock()
	n.built, n.sorted, n.added = false, nil, nil
	n.mu.Unlock()
}

// add records a chunk put into the index; the caller holds the index's
// write lock.
func (n *symbolNames) add(id uint32, m *meta) {
	n.mu.Lock()
	if n.built && m.Symbol != "" {
		n.added = append(n.added, nameEntry(m.Symbol, id))
	}
	n.mu.Unlock()
}

// lookup calls fn with the id of every chunk whose symbol's own name may be
// name (hashes collide: fn checks), removed chunks among them.
func (n *symbolNames) lookup(metas []*meta, name string, fn func(id uint32)) {
	n.mu.Lock()
	if !n.built {
		n.sorted = make([]uint64, 0, len(metas)/2)
		for id, m := range metas {
			if m != nil && m.Symbol != "" {
				n.sorted = append(n.sorted, nameEntry(m.Symbol, uint32(id)))
			}
		}
		slices.Sort(n.sorted)
		n.built = true
	}
	if len(n.added) > len(n.sorted)/8 {
		n.sorted = append(n.sorted, n.added...)
		n.added = nil
		slices.Sort(n.sorted)
	}
	h := uint64(foldHash(name))
	sorted, added := n.sorted, n.added
	n.mu.Unlock()
	i, _ := slices.BinarySearch(sorted, h<<32)
	for ; i < len(sorted) && sorted[i]>>32 == h; i++ {
		fn(uint32(sorted[i]))
	}
	for _, e := range added {
		if e>>32 == h {
			fn(uint32(e))
		}
	}
}

// foldHash is the FNV-1a hash of s in lower case, without underscores, so
// that a name looked up as spelled words (spelledName) finds its symbols.
func foldHash(s string) uint32 {
	h := uint32(2166136261)
	for _, r := range s {
		if r == '_' {
			continue
		}
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
		} else {
			r = unicode.ToLower(r)
		}
		for ; r > 0; r >>= 8 {
			h = (h ^ uint32(r&0xff)) * 16777619
		}
	}
	return h
}
