package agentconfig

import (
	"fmt"
	"strings"
	"testing"
)

// largeClaudeJSON is a ~/.claude.json as a long-time user has it: settings,
// an account, a cached changelog and, above all, per-project history, laid
// out as Claude Code writes it (two-space JSON), grown to at least size
// bytes. The project at root is one of many.
func largeClaudeJSON(size int, root string) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"numStartups\": 412,\n  \"installMethod\": \"native\",\n  \"autoUpdates\": true,\n")
	b.WriteString("  \"tipsHistory\": {\n    \"new-user-warmup\": 7,\n    \"memory-command\": 31,\n    \"theme-command\": 12\n  },\n")
	b.WriteString("  \"oauthAccount\": {\n    \"accountUuid\": \"9b2f3c1e-0000-4000-8000-1234567890ab\",\n    \"emailAddress\": \"dev@example.com\",\n    \"organizationRole\": \"admin\"\n  },\n")
	b.WriteString("  \"cachedChangelog\": " + mustJSON(strings.Repeat("## 1.0.0\n- Fixed a bug with \"quotes\" and unicode: été, 日本\n", 200)) + ",\n")
	b.WriteString("  \"projects\": {\n")
	for i := 0; b.Len() < size || i < 2; i++ {
		path := fmt.Sprintf("/home/dev/src/project-%d", i)
		if i == 1 {
			path = root
		}
		b.WriteString("    " + mustJSON(path) + ": {\n      \"allowedTools\": [\n        \"Bash(go test:*)\",\n        \"Edit\"\n      ],\n      \"history\": [\n")
		for h := range 20 {
			sep := ","
			if h == 19 {
				sep = ""
			}
			fmt.Fprintf(&b, "        {\n          \"display\": %s,\n          \"pastedContents\": {}\n        }%s\n", mustJSON(fmt.Sprintf("refactor the parser in pkg/%d so that errors carry the line (attempt %d)", i, h)), sep)
		}
		b.WriteString("      ],\n      \"mcpContextUris\": [],\n      \"mcpServers\": {},\n      \"enabledMcpjsonServers\": [],\n      \"disabledMcpjsonServers\": [],\n")
		fmt.Fprintf(&b, "      \"hasTrustDialogAccepted\": true,\n      \"projectOnboardingSeenCount\": 4,\n      \"lastCost\": 1.2345,\n      \"lastSessionId\": \"5e0c9a1d-%04d-4000-8000-abcdefabcdef\"\n    },\n", i%10000)
	}
	s := strings.TrimSuffix(b.String(), ",\n") + "\n  },\n  \"userID\": \"abc123\"\n}\n"
	return []byte(s)
}

// countParses counts whole-document JSON parses while f runs.
func countParses(t testing.TB, f func()) int {
	n := 0
	parseHook = func() { n++ }
	defer func() { parseHook = nil }()
	f()
	return n
}

// TestLargeClaudeJSONParsedOnce: adding, re-adding and removing our entry
// in a 1 MB ~/.claude.json each parse the file once, and only our lines
// change.
func TestLargeClaudeJSONParsedOnce(t *testing.T) {
	data := largeClaudeJSON(1<<20, testRoot)
	key := []string{"projects", testRoot, "mcpServers"}
	c, _ := Lookup("claude-code")
	entry := c.Emit(Launch(testBinary, testRoot))
	var out []byte
	if n := countParses(t, func() {
		var err error
		if out, _, err = Merge(JSON, data, key, ServerName, false, entry, nil); err != nil {
			t.Fatal(err)
		}
	}); n != 1 {
		t.Errorf("merge parsed the file %d times", n)
	}
	if n := countParses(t, func() {
		if _, changed, err := Merge(JSON, out, key, ServerName, false, entry, nil); err != nil || changed {
			t.Fatalf("re-run: %v %v", changed, err)
		}
	}); n != 1 {
		t.Errorf("re-run parsed the file %d times", n)
	}
	var back []byte
	if n := countParses(t, func() {
		var err error
		if back, _, err = Remove(JSON, out, key, ServerName, false); err != nil {
			t.Fatal(err)
		}
	}); n != 1 {
		t.Errorf("remove parsed the file %d times", n)
	}
	if string(back) != string(data) {
		t.Error("install then uninstall did not give back the file byte for byte")
	}
	// Everything but the project's servers object is the original's bytes.
	marker := `"mcpServers": {}`
	i := strings.Index(string(data), mustJSON(testRoot))
	j := i + strings.Index(string(data[i:]), marker)
	if string(out[:j]) != string(data[:j]) || !strings.HasSuffix(string(out), string(data[j+len(marker):])) {
		t.Error("bytes outside the entry changed")
	}
}

// BenchmarkMergeLargeClaudeJSON merges our entry into a 1 MB ~/.claude.json,
// as install and upgrade do with Claude Code's per-project servers.
func BenchmarkMergeLargeClaudeJSON(b *testing.B) {
	data := largeClaudeJSON(1<<20, testRoot)
	key := []string{"projects", testRoot, "mcpServers"}
	c, _ := Lookup("claude-code")
	entry := c.Emit(Launch(testBinary, testRoot))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Merge(JSON, data, key, ServerName, false, entry, nil); err != nil {
			b.Fatal(err)
		}
	}
}
