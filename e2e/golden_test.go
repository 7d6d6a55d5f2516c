package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestToolsListGolden snapshots every tool's name, description, schemas and
// annotations, so a change to the tool API is always a deliberate one:
// run `go test ./e2e -run Golden -update` and review the diff.
func TestToolsListGolden(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	c := stdioClient(t, root, "--transport", "stdio")
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(res.Tools, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "tools.golden.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("tools/list changed; if deliberate, run `go test ./e2e -run Golden -update` and commit the diff.\ngot:\n%s", got)
	}
	for _, tool := range res.Tools {
		a := tool.Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil {
			t.Errorf("%s: every annotation must be set explicitly: %+v", tool.Name, a)
		}
		if tool.OutputSchema.Type == "" && len(tool.RawOutputSchema) == 0 {
			t.Errorf("%s has no output schema", tool.Name)
		}
	}
}
