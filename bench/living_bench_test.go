//go:build linux

package bench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/workflow"
)

// What a check of a finished spec costs (issue 36), on a real project: a
// clone of github.com/google/uuid (AGENTOS_LIVING_PROJECT, a git checkout;
// the benchmark skips without one). A spec with five criteria — one for a
// function the session adds, four traced to the project's own tests — is
// finished through the engine's execution workflow; then the check (snapshot
// of the tree, the tests read for the criteria, the traced tests run in the
// gate's sandbox narrowed to them, the changes since completion) is timed,
// beside the session's last gate (which also ran fail-before and the earlier
// tests). No code index is opened: the graph's part is not in the figure.

// livingTraced are the project's tests the spec's criteria AC-1.1.2 … name.
var livingTraced = [][2]string{
	{"json_test.go", "TestJSON"}, {"null_test.go", "TestNullUUIDScan"}, {"sql_test.go", "TestScan"}, {"sql_test.go", "TestValue"},
}

const livingTasks = `# Tasks: short ids

## Phase 1: Short ids

- [x] 1.1 Add Short
  - Short returns the first eight hex digits
  - Estimate: 1h
  - Acceptance criteria:
    - [x] AC-1.1.1: Short is the first eight digits of String
    - [x] AC-1.1.2: JSON still round-trips
    - [x] AC-1.1.3: a NullUUID still scans
    - [x] AC-1.1.4: Scan still reads every form
    - [x] AC-1.1.5: Value still writes the string form
`

func BenchmarkLivingSpecCheck(b *testing.B) {
	needSandbox(b)
	src := os.Getenv("AGENTOS_LIVING_PROJECT")
	if src == "" {
		b.Skip("set AGENTOS_LIVING_PROJECT to a git checkout of github.com/google/uuid")
	}
	root := filepath.Join(b.TempDir(), "uuid")
	if out, err := exec.Command("git", "clone", "-q", "--local", src, root).CombinedOutput(); err != nil {
		b.Fatalf("clone: %v\n%s", err, out)
	}
	n := 2
	for _, ft := range livingTraced {
		file, test := ft[0], ft[1]
		path := filepath.Join(root, file)
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		data = []byte(strings.Replace(string(data), "func "+test+"(", "// AC-1.1."+string(rune('0'+n))+"\nfunc "+test+"(", 1))
		n++
		os.WriteFile(path, data, 0o644)
	}
	e, id := livingSession(b, root)
	writeFiles(b, root, map[string]string{
		"short.go":      "package uuid\n\n// Short is the first eight hex digits of the UUID.\nfunc (uuid UUID) Short() string { return uuid.String()[:8] }\n",
		"short_test.go": "package uuid\n\nimport \"testing\"\n\n// AC-1.1.1\nfunc TestShort(t *testing.T) {\n\tif got := Must(Parse(\"f47ac10b-58cc-0372-8567-0e02b2c3d479\")).Short(); got != \"f47ac10b\" {\n\t\tt.Fatalf(\"Short = %q\", got)\n\t}\n}\n",
	})
	ctx := context.Background()
	agent := workflow.Actor{Client: "bench"}
	if _, err := e.CompleteTask(id, "1.1", "", agent, false); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	s, r, err := e.CompletePhase(ctx, id, nil, agent, false)
	if err != nil || !r.Passed || s.Status != workflow.StatusCompleted {
		b.Fatalf("the session did not complete: %v %+v", err, r)
	}
	gate := time.Since(start)
	var check time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		specs, err := e.CheckSpecs(ctx, nil)
		if err != nil || len(specs) != 1 || specs[0].State != workflow.SpecHolding {
			b.Fatalf("check: %v %+v", err, specs)
		}
		check += time.Since(start)
	}
	b.ReportMetric(float64(check.Milliseconds())/float64(b.N), "check-ms")
	b.ReportMetric(float64(gate.Milliseconds()), "last-gate-ms")
	data, _ := os.ReadFile(filepath.Join(root, ".agentos", "state", "living", "2026-01-01-short.json"))
	b.ReportMetric(float64(len(data)), "record-bytes")
}

func livingSession(b *testing.B, root string) (*workflow.Engine, string) {
	b.Helper()
	e := benchEngine(b, root)
	spec := "2026-01-01-short"
	writeFiles(b, root, map[string]string{
		".agentos/specs/" + spec + "/README.md": "# Short ids\n\nCoverage threshold: 1%\n\n## Objectives\nShort ids.\n",
		".agentos/specs/" + spec + "/tasks.md":  livingTasks,
	})
	if _, err := e.ApproveSpec(spec, workflow.Approver{By: "bench", Via: workflow.ViaTerminal, Actor: workflow.CLIActor}, "", nil); err != nil {
		b.Fatal(err)
	}
	s, err := e.Start(context.Background(), "spec_execution_v1", map[string]string{"spec": spec}, workflow.Actor{Client: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	return e, s.ID
}
