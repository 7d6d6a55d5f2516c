package agentconfig

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// genConfig writes a random valid config of c's format: other settings,
// other servers under c's key and, where the format has them, comments.
// It returns the text and the comments it holds.
func genConfig(r *rand.Rand, c Client) (string, []string) {
	var comments []string
	comment := func(prefix string) string {
		if r.IntN(2) == 0 {
			return ""
		}
		s := fmt.Sprintf("%s note %d", prefix, r.IntN(1e6))
		comments = append(comments, s)
		return " " + s
	}
	word := func() string { return fmt.Sprintf("k%d", r.IntN(1e4)) }
	nOther, nServers := r.IntN(4), r.IntN(4)
	var b strings.Builder
	switch c.Format {
	case JSON, JSONC:
		cm := func() string {
			if c.Format != JSONC {
				return ""
			}
			return comment("//")
		}
		unit := []string{"  ", "    ", "\t"}[r.IntN(3)]
		b.WriteString("{" + cm() + "\n")
		var members []string
		for i := 0; i < nOther; i++ {
			members = append(members, fmt.Sprintf("%s%q: %d", unit, word(), r.IntN(100)))
		}
		if r.IntN(4) > 0 {
			var servers []string
			for i := 0; i < nServers; i++ {
				servers = append(servers, fmt.Sprintf("%s%s%q: {\"command\": %q, \"args\": [%q]}", unit, unit, fmt.Sprintf("srv%d", i), word(), word()))
			}
			inner := ""
			for i, s := range servers {
				inner += s
				if i < len(servers)-1 {
					inner += ","
				}
				inner += cm() + "\n"
			}
			members = append(members, fmt.Sprintf("%s%q: {\n%s%s}", unit, c.Key[0], inner, unit))
		}
		for i, m := range members {
			b.WriteString(m)
			if i < len(members)-1 || (c.Format == JSONC && r.IntN(2) == 0) {
				b.WriteString(",")
			}
			b.WriteString(cm() + "\n")
		}
		b.WriteString("}\n")
	case YAML:
		// The person's layout: indent step, a list at its key's indent or
		// deeper, blank lines, folded and literal scalars.
		in := strings.Repeat(" ", 2+2*r.IntN(2))
		dash := in
		if r.IntN(2) == 0 {
			dash = ""
		}
		blank := func() string { return strings.Repeat("\n", r.IntN(2)) }
		for i := 0; i < nOther; i++ {
			fmt.Fprintf(&b, "%s: %d%s\n%s", word(), r.IntN(100), comment("#"), blank())
		}
		if r.IntN(3) == 0 {
			fmt.Fprintf(&b, "notes: %s\n%sfirst %s\n\n%slast\n", []string{">", "|", "|-", ">+"}[r.IntN(4)], in, word(), in+in[:r.IntN(2)])
		}
		if r.IntN(4) > 0 {
			fmt.Fprintf(&b, "%s:%s\n", c.Key[0], comment("#"))
			for i := 0; i < nServers; i++ {
				if c.List {
					fmt.Fprintf(&b, "%s- name: srv%d%s\n%s  command: %s\n%s", dash, i, comment("#"), dash, word(), blank())
				} else {
					fmt.Fprintf(&b, "%ssrv%d:%s\n%scmd: %s\n%senabled: true\n%s", in, i, comment("#"), in+in, word(), in+in, blank())
				}
			}
			if nServers == 0 {
				if c.List {
					b.WriteString(in + "[]\n")
				} else {
					b.WriteString(in + "{}\n")
				}
			}
			if r.IntN(2) == 0 {
				fmt.Fprintf(&b, "after: 1%s\n", comment("#"))
			}
		}
	case TOML:
		for i := 0; i < nOther; i++ {
			fmt.Fprintf(&b, "%s = %d%s\n", word(), r.IntN(100), comment("#"))
		}
		for i := 0; i < nServers; i++ {
			fmt.Fprintf(&b, "\n[%s.srv%d]%s\ncommand = %q\nargs = []\n", c.Key[0], i, comment("#"), word())
			if r.IntN(2) == 0 {
				fmt.Fprintf(&b, "\n[%s.srv%d.env]\nA = \"b\"\n", c.Key[0], i)
			}
		}
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, "\n[profiles.p%d]%s\nmodel = \"m\"\n", r.IntN(9), comment("#"))
		}
	}
	return b.String(), comments
}

// TestMergeProperties: for generated valid configs in every client's
// format, our write parses, leaves every other entry as it was, keeps the
// comments, and a second write changes nothing; removing restores the rest.
// The same config with a byte-order mark or CRLF endings merges to the
// same result in that form.
func TestMergeProperties(t *testing.T) {
	for _, c := range All() {
		r := rand.New(rand.NewPCG(1, uint64(len(c.ID))))
		for i := 0; i < 60; i++ {
			text, comments := genConfig(r, c)
			before, err := Decode(c.Format, []byte(text))
			if err != nil {
				t.Fatalf("%s: generated an invalid config: %v\n%s", c.ID, err, text)
			}
			entry := c.Emit(Launch(testBinary, testRoot))
			if i%3 == 1 && c.CanHTTP() {
				entry = c.Emit(HTTPEntry(testURL))
			}
			out, _, err := Merge(c.Format, []byte(text), c.Key, ServerName, c.List, entry, nil)
			if err != nil {
				t.Fatalf("%s: merge: %v\n%s", c.ID, err, text)
			}
			after, err := Decode(c.Format, out)
			if err != nil {
				t.Fatalf("%s: result does not parse: %v\n%s", c.ID, err, out)
			}
			if !sameValue(without(c, before), without(c, after)) {
				t.Fatalf("%s: other entries changed:\n%s\n=>\n%s", c.ID, text, out)
			}
			for _, cm := range comments {
				if !strings.Contains(string(out), cm) {
					t.Fatalf("%s: comment %q lost:\n%s\n=>\n%s", c.ID, cm, text, out)
				}
			}
			// YAML is spliced: into a collection that has members, our
			// entry's lines are inserted and no other byte changes.
			if c.Format == YAML && strings.Contains(text, "srv0") {
				if _, ok := insertion(text, string(out)); !ok {
					t.Fatalf("%s: the person's lines changed:\n%s\n=>\n%s", c.ID, text, out)
				}
			}
			again, changed, err := Merge(c.Format, out, c.Key, ServerName, c.List, entry, nil)
			if err != nil || changed || string(again) != string(out) {
				t.Fatalf("%s: second write changed=%v err=%v", c.ID, changed, err)
			}
			// A file without lines has no ending to keep.
			if withBOM, crlf := r.IntN(2) == 0, r.IntN(2) == 0 && strings.Contains(text, "\n"); withBOM || crlf {
				formed, _, err := Merge(c.Format, []byte(inForm(text, withBOM, crlf)), c.Key, ServerName, c.List, entry, nil)
				if want := inForm(string(out), withBOM, crlf); err != nil || string(formed) != want {
					t.Fatalf("%s: with mark %v, CRLF %v: %v\n%q\nwant\n%q", c.ID, withBOM, crlf, err, formed, want)
				}
			}
			removed, _, err := Remove(c.Format, out, c.Key, ServerName, c.List)
			if err != nil {
				t.Fatalf("%s: remove: %v", c.ID, err)
			}
			back, err := Decode(c.Format, removed)
			if err != nil || !sameValue(without(c, before), without(c, back)) {
				t.Fatalf("%s: remove changed other entries:\n%s", c.ID, removed)
			}
		}
	}
}

// without drops agentos's entry and an emptied servers collection, which
// is all a merge or a removal may change.
func without(c Client, doc any) any {
	if doc == nil {
		return map[string]any{}
	}
	m, ok := plain(doc).(map[string]any)
	if !ok {
		return doc
	}
	switch servers := m[c.Key[0]].(type) {
	case map[string]any:
		delete(servers, ServerName)
		if len(servers) == 0 {
			delete(m, c.Key[0])
		}
	case []any:
		var kept []any
		for _, item := range servers {
			if im, ok := item.(map[string]any); ok && im["name"] == ServerName {
				continue
			}
			kept = append(kept, item)
		}
		if len(kept) == 0 {
			delete(m, c.Key[0])
		} else {
			m[c.Key[0]] = kept
		}
	case nil:
		delete(m, c.Key[0])
	}
	return m
}

// FuzzMergeJSONC: whatever JSONC object the fuzzer finds, a merge either
// refuses it or keeps every other member and is idempotent; a byte-order
// mark stays, and a file whose lines all end in CRLF still does.
func FuzzMergeJSONC(f *testing.F) {
	for _, seed := range []string{"{}", `{"mcpServers":{}}`, "{\n  // c\n  \"mcpServers\": {\"a\": {}},\n}", `{"x":[1,2],"mcpServers":{"agentos":1}}`, "{\"a\":{\"b\":null}} // end",
		bom + "{\r\n  // c\r\n  \"mcpServers\": {},\r\n}\r\n", "{\r\n\"a\": 1,\n\"mcpServers\": {\"b\": {}}\r\n}"} {
		f.Add(seed)
	}
	c, _ := Lookup("cursor")
	entry := c.Emit(Launch(testBinary, testRoot))
	f.Fuzz(func(t *testing.T, in string) {
		before, err := Decode(JSONC, []byte(in))
		if err != nil {
			return
		}
		out, _, err := Merge(JSONC, []byte(in), c.Key, ServerName, false, entry, nil)
		if err != nil {
			return // refused: nothing is written
		}
		after, err := Decode(JSONC, out)
		if err != nil {
			t.Fatalf("result does not parse: %v\n%s", err, out)
		}
		if !sameValue(without(c, before), without(c, after)) {
			t.Fatalf("other members changed:\n%s\n=>\n%s", in, out)
		}
		again, changed, err := Merge(JSONC, out, c.Key, ServerName, false, entry, nil)
		if err != nil || changed || string(again) != string(out) {
			t.Fatalf("second write changed=%v err=%v", changed, err)
		}
		if strings.HasPrefix(in, bom) != strings.HasPrefix(string(out), bom) {
			t.Fatalf("byte-order mark not kept:\n%q\n=>\n%q", in, out)
		}
		if lf := func(s string) int { return strings.Count(s, "\n") - strings.Count(s, "\r\n") }; strings.Contains(in, "\r\n") && lf(in) == 0 && lf(string(out)) > 0 {
			t.Fatalf("a CRLF file got LF lines:\n%q\n=>\n%q", in, out)
		}
	})
}

// Every client's config behind a symbolic link (a dotfile manager's, one or
// two links deep, relative or absolute), with a byte-order mark or CRLF
// endings or neither: planning and applying the entry writes through the
// links, which stay links, and the target holds exactly what a merge of
// its content gives; a second plan changes nothing.
func TestLinkedConfigProperties(t *testing.T) {
	for _, c := range All() {
		r := rand.New(rand.NewPCG(2, uint64(len(c.ID))))
		for i := 0; i < 6; i++ {
			text, _ := genConfig(r, c)
			text = inForm(text, r.IntN(2) == 0, r.IntN(2) == 0 && strings.Contains(text, "\n"))
			dir := t.TempDir()
			target := filepath.Join(dir, "dotfiles", "config")
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(target, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "home", "config")
			os.MkdirAll(filepath.Dir(path), 0o755)
			links := []string{path}
			if r.IntN(2) == 0 { // a second link in the chain
				links = append(links, filepath.Join(dir, "home", "middle"))
			}
			for j, l := range links {
				to := target
				if j+1 < len(links) {
					to = links[j+1]
				}
				if r.IntN(2) == 0 {
					to, _ = filepath.Rel(filepath.Dir(l), to)
				}
				if err := os.Symlink(to, l); err != nil {
					t.Fatal(err)
				}
			}
			entry := Launch(testBinary, testRoot)
			tg := Target{Client: c, Scope: ScopeUser, Path: path, Key: c.Key}
			ch, err := PlanEntry(tg, entry)
			if err != nil {
				t.Fatalf("%s: plan: %v\n%q", c.ID, err, text)
			}
			want, _, _ := Merge(c.Format, []byte(text), c.Key, ServerName, c.List, c.Emit(entry), c.FreshDoc)
			if _, err := Apply(ch, Backups{}); err != nil {
				t.Fatalf("%s: apply: %v", c.ID, err)
			}
			for _, l := range links {
				if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Fatalf("%s: %s is no longer a link", c.ID, l)
				}
			}
			if got, _ := os.ReadFile(target); string(got) != string(want) {
				t.Fatalf("%s: the target holds\n%q\nwant\n%q", c.ID, got, want)
			}
			if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
				t.Errorf("%s: the target's mode became %v", c.ID, fi.Mode().Perm())
			}
			if again, err := PlanEntry(tg, entry); err != nil || again.Action != Unchanged {
				t.Fatalf("%s: second plan %v %v", c.ID, again.Action, err)
			}
		}
	}
}
