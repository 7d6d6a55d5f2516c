package agentconfig

import (
	"strings"
	"testing"
)

// insertion returns what out adds to in when out is in with one stretch of
// bytes inserted, and ok false when anything of in changed.
func insertion(in, out string) (string, bool) {
	p := 0
	for p < len(in) && p < len(out) && in[p] == out[p] {
		p++
	}
	s := 0
	for s < len(in)-p && s < len(out)-p && in[len(in)-1-s] == out[len(out)-1-s] {
		s++
	}
	return out[p : len(out)-s], p+s == len(in)
}

// Hand-kept YAML configs as people write them: their own indentation,
// blank lines, comments, anchors, folded and literal scalars, flow style
// elsewhere, a list written at its key's indent, a second document.
var yamlLayouts = map[string]struct {
	client, in string
	want       string // the lines our entry becomes, in the file's style
}{
	"goose four spaces": {"goose", `# goose config
GOOSE_PROVIDER: openai   # keep the spacing
GOOSE_MODEL: gpt-4o

extensions:
    # the developer extension
    developer:
        enabled: true
        name: developer
        type: builtin

    memory:
        enabled: false
        timeout: 300

# trailing notes
`, "    agentos:\n        name: agentos\n"},
	"goose folded and literal": {"goose", `instructions: >
    a long folded
    paragraph that

    has two parts
extensions:
  fetch:
    cmd: uvx
    description: |
      fetches pages
        keeping this indent

      and this blank line
    args: [mcp-server-fetch, --ignore-robots]
other: value
`, "  agentos:\n    name: agentos\n"},
	"goose anchors": {"goose", `defaults: &defaults
  enabled: true
  timeout: 300
extensions:
  a:
    <<: *defaults
    cmd: a
  b: {cmd: b, enabled: false}
`, "  agentos:\n"},
	"goose empty flow": {"goose", "GOOSE_MODEL: o3\nextensions: {}   # none yet\nlast: 1\n", "  agentos:\n"},
	"goose null":       {"goose", "extensions:\n\nGOOSE_MODEL: o3\n", "  agentos:\n"},
	"goose missing":    {"goose", "GOOSE_MODEL: o3 # no extensions yet\n", "extensions:\n  agentos:\n"},
	"continue dash at key indent": {"continue", `name: my-config
version: 0.0.1
schema: v1

models:
- name: gpt
  provider: openai
  roles: [chat, edit]

mcpServers:
- name: other # keep me
  command: other-mcp
  args:
  - --flag

rules:
- be brief
`, "- name: agentos\n"},
	"continue indented list": {"continue", "name: c\nversion: 0.0.1\nschema: v1\nmcpServers:\n    -   name: other\n        command: x\n---\nsecond: document\n", "    - name: agentos\n"},
}

// TestYAMLKeepsEveryLine: merging into a hand-kept YAML config inserts our
// entry's lines and changes no other byte; re-running changes nothing;
// removing gives back the file byte for byte, and a changed entry is
// replaced in place.
func TestYAMLKeepsEveryLine(t *testing.T) {
	for name, tc := range yamlLayouts {
		t.Run(name, func(t *testing.T) {
			c, _ := Lookup(tc.client)
			entry := c.Emit(Launch(testBinary, testRoot))
			out, changed, err := Merge(YAML, []byte(tc.in), c.Key, ServerName, c.List, entry, nil)
			if err != nil || !changed {
				t.Fatalf("merge: %v %v", changed, err)
			}
			kept := tc.in
			if name == "goose empty flow" {
				kept = strings.Replace(kept, " {}", "", 1) // the only byte we take away
			}
			added, ok := insertion(kept, string(out))
			if !ok {
				t.Fatalf("lines of the file changed:\n%s", out)
			}
			if !strings.HasPrefix(added, tc.want) && !strings.Contains(added, "\n"+tc.want) {
				t.Errorf("the entry is not in the file's style (want %q):\n%s", tc.want, added)
			}
			if again, changed, err := Merge(YAML, out, c.Key, ServerName, c.List, entry, nil); err != nil || changed || string(again) != string(out) {
				t.Fatalf("re-run: %v %v", changed, err)
			}
			moved := c.Emit(Launch("/opt/agentos", testRoot))
			updated, _, err := Merge(YAML, out, c.Key, ServerName, c.List, moved, nil)
			if err != nil {
				t.Fatal(err)
			}
			if back, _, err := Remove(YAML, updated, c.Key, ServerName, c.List); err != nil {
				t.Fatal(err)
			} else if name == "goose null" || name == "goose missing" {
				// The emptied collection stays, written {}.
				if _, ok := insertion(tc.in, string(back)); !ok {
					t.Errorf("remove changed the person's lines:\n%s", back)
				}
			} else if string(back) != tc.in {
				t.Errorf("install, update, uninstall did not give back the file:\n%s", back)
			}
			if got, ok, err := LookupEntry(YAML, updated, c.Key, ServerName, c.List); err != nil || !ok || !sameValue(got, moved) {
				t.Errorf("updated entry = %v %v %v", got, ok, err)
			}
		})
	}
}

// A servers collection written in flow style with members is refused, and
// nothing is written.
func TestYAMLFlowCollectionRefused(t *testing.T) {
	c, _ := Lookup("goose")
	in := "extensions: {a: {cmd: x}}\n"
	if _, _, err := Merge(YAML, []byte(in), c.Key, ServerName, false, c.Emit(Launch(testBinary, testRoot)), nil); err == nil || !strings.Contains(err.Error(), "flow style") {
		t.Fatalf("err = %v", err)
	}
}

// FuzzMergeYAML: whatever YAML mapping the fuzzer finds, a merge either
// refuses it or keeps every other setting, is idempotent and can be undone.
func FuzzMergeYAML(f *testing.F) {
	for _, l := range yamlLayouts {
		f.Add(l.in)
	}
	c, _ := Lookup("goose")
	entry := c.Emit(Launch(testBinary, testRoot))
	f.Fuzz(func(t *testing.T, in string) {
		before, err := Decode(YAML, []byte(in))
		if err != nil {
			return
		}
		out, _, err := Merge(YAML, []byte(in), c.Key, ServerName, false, entry, nil)
		if err != nil {
			return // refused: nothing is written
		}
		after, err := Decode(YAML, out)
		if err != nil || !sameValue(dropEntry(before, c.Key, ServerName, false), dropEntry(after, c.Key, ServerName, false)) {
			t.Fatalf("other settings changed (%v):\n%s\n=>\n%s", err, in, out)
		}
		if again, changed, err := Merge(YAML, out, c.Key, ServerName, false, entry, nil); err != nil || changed || string(again) != string(out) {
			t.Fatalf("second write changed=%v err=%v", changed, err)
		}
		if _, _, err := Remove(YAML, out, c.Key, ServerName, false); err != nil {
			t.Fatalf("remove: %v\n%s", err, out)
		}
	})
}
