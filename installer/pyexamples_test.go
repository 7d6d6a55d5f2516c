package installer

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// pyBlockRE finds the Python code blocks of a rendered standard.
var pyBlockRE = regexp.MustCompile("(?ms)^```python\n(.*?)^```")

// pyParse parses each source with Python's own parser at the given feature
// version ("3.9"), which rejects syntax newer than it (match, except*), and
// returns one error message per source ("" when it parses).
const pyParse = `import ast, json, sys
version = tuple(int(p) for p in sys.argv[1].split("."))
out = []
for src in json.load(sys.stdin):
    try:
        ast.parse(src, feature_version=version)
        out.append("")
    except SyntaxError as e:
        out.append(f"line {e.lineno}: {e.msg}")
print(json.dumps(out))
`

// checkPythonExamples parses the Python blocks of rendered standards at
// pyVersion. It skips, loudly, without python3, except in CI.
func checkPythonExamples(t *testing.T, pyVersion string, rendered map[string]string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but no python3: %v (run scripts/install-python3.sh)", err)
		}
		t.Skipf("SKIPPING PYTHON SYNTAX CHECK: %v (run scripts/install-python3.sh)", err)
	}
	var names, blocks []string
	for topic, text := range rendered {
		for i, m := range pyBlockRE.FindAllStringSubmatch(text, -1) {
			names = append(names, topic+" example "+string(rune('1'+i)))
			blocks = append(blocks, m[1])
		}
	}
	in, err := json.Marshal(blocks)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-c", pyParse, pyVersion)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var problems []string
	if err := json.Unmarshal(out, &problems); err != nil || len(problems) != len(blocks) {
		t.Fatalf("python3 answered %q: %v", out, err)
	}
	for i, p := range problems {
		if p != "" {
			t.Errorf("python-%s does not parse as Python %s: %s", names[i], pyVersion, p)
		}
	}
}
