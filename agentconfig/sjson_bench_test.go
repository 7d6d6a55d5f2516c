package agentconfig

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tidwall/sjson"
)

// BenchmarkSetLargeClaudeJSONWithSJSON is the design card's alternative to
// BenchmarkMergeLargeClaudeJSON: tidwall/sjson setting the same entry in
// the same 1 MB file. It is here to keep the comparison in
// docs/decisions.md measurable; sjson does not check the result, keep
// comments valid or lay the entry out like its neighbours.
func BenchmarkSetLargeClaudeJSONWithSJSON(b *testing.B) {
	data := largeClaudeJSON(1<<20, testRoot)
	c, _ := Lookup("claude-code")
	raw, err := json.Marshal(c.Emit(Launch(testBinary, testRoot)))
	if err != nil {
		b.Fatal(err)
	}
	// sjson's paths split on dots and match * and ?: a project path must be
	// escaped, or the entry lands under a wrong, new key.
	esc := strings.NewReplacer(".", `\.`, "*", `\*`, "?", `\?`)
	path := "projects." + esc.Replace(testRoot) + ".mcpServers." + ServerName
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sjson.SetRawBytes(data, path, raw); err != nil {
			b.Fatal(err)
		}
	}
}
