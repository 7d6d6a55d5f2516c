package agentconfig

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const (
	testRoot   = "/home/dev/proj"
	testBinary = "/home/dev/proj/.agentos/bin/agentos"
	testURL    = "http://127.0.0.1:4242/mcp"
)

// existing returns a config that holds another server, other settings and,
// where the format has them, comments.
func existing(c Client) string {
	k := c.Key[0]
	switch {
	case c.Format == JSONC:
		return `{
  // user settings
  "editor.fontSize": 14,
  "` + k + `": {
    // other servers
    "other": { "command": "other-mcp", "args": [] }, // keep me
  },
}
`
	case c.Format == JSON:
		return `{
  "$schema": "https://example.com/schema.json",
  "` + k + `": {
    "other": {
      "command": "other-mcp",
      "args": ["--flag"]
    }
  },
  "setting": true
}
`
	case c.Format == YAML && c.List:
		return `name: my-config
version: 0.0.1
schema: v1
# servers I use
mcpServers:
  - name: other # keep me
    command: other-mcp
`
	case c.Format == YAML:
		return `# goose config
GOOSE_MODEL: gpt-4o
` + k + `:
  # the developer extension
  developer:
    enabled: true
    name: developer
    type: builtin
`
	default:
		return `# codex config
model = "o3"

[` + k + `.other]
command = "other-mcp" # keep me
args = []

[profiles.fast]
model = "o4-mini"
`
	}
}

func ext(c Client) string {
	if c.Format == JSONC {
		return "jsonc"
	}
	return string(c.Format)
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./agentconfig -update)", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestGoldenPerClient(t *testing.T) {
	for _, c := range All() {
		t.Run(c.ID, func(t *testing.T) {
			launch := c.Emit(Launch(testBinary, testRoot))
			second := c.Emit(HTTPEntry(testURL))
			if !c.CanHTTP() {
				second = c.Emit(Bridge(testBinary, testRoot))
			}
			fresh, changed, err := Merge(c.Format, nil, c.Key, ServerName, c.List, launch, c.FreshDoc)
			if err != nil || !changed {
				t.Fatalf("fresh: %v %v", changed, err)
			}
			checkGolden(t, c.ID+".fresh."+ext(c), fresh)
			sec, _, err := Merge(c.Format, nil, c.Key, ServerName, c.List, second, c.FreshDoc)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, c.ID+".secondary."+ext(c), sec)

			orig := []byte(existing(c))
			merged, changed, err := Merge(c.Format, orig, c.Key, ServerName, c.List, launch, c.FreshDoc)
			if err != nil || !changed {
				t.Fatalf("merge: %v %v", changed, err)
			}
			checkGolden(t, c.ID+".merge."+ext(c), merged)
			for _, comment := range commentsOf(string(orig)) {
				if !strings.Contains(string(merged), comment) {
					t.Errorf("comment %q lost", comment)
				}
			}
			if other, ok, err := LookupEntry(c.Format, merged, c.Key, "other", c.List); !ok || err != nil || other["command"] != "other-mcp" {
				if c.ID != "goose" {
					t.Errorf("other server lost: %v %v %v", other, ok, err)
				}
			}
			again, changed, err := Merge(c.Format, merged, c.Key, ServerName, c.List, launch, c.FreshDoc)
			if err != nil || changed || string(again) != string(merged) {
				t.Errorf("second write is not a no-op: changed=%v err=%v", changed, err)
			}
			got, ok, err := LookupEntry(c.Format, merged, c.Key, ServerName, c.List)
			if err != nil || !ok || !sameValue(got, launch) {
				t.Errorf("entry read back = %v %v %v", got, ok, err)
			}
			removed, changed, err := Remove(c.Format, merged, c.Key, ServerName, c.List)
			if err != nil || !changed {
				t.Fatalf("remove: %v %v", changed, err)
			}
			if _, ok, _ := LookupEntry(c.Format, removed, c.Key, ServerName, c.List); ok {
				t.Error("entry still there after remove")
			}
			before, _ := Decode(c.Format, orig)
			after, err := Decode(c.Format, removed)
			if err != nil || !sameValue(before, after) {
				t.Errorf("remove did not restore the original settings:\n%s", removed)
			}
		})
	}
}

// commentsOf returns the comments of a fixture: what follows // or #.
func commentsOf(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		for _, mark := range []string{"// ", "# "} {
			if i := strings.Index(line, mark); i >= 0 && !strings.Contains(line[:i], "\"") {
				out = append(out, strings.TrimSpace(line[i:]))
			}
		}
	}
	return out
}
