package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A project's repository may come with a config naming programs git runs
// when it reads the work tree (an fsmonitor hook, a filter, a textconv):
// a project handed over with its .git, or a config an agent edited. The
// impact of a diff, asked through the MCP tool and the CLI, reads the
// repository and runs none of them.
func TestImpactOfADiffRunsNoProgramTheRepositoryNames(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	goProject(t, root)
	gitE2E(t, root, "init", "-q", "-b", "main")
	gitE2E(t, root, "add", "-A")
	gitE2E(t, root, "commit", "-q", "-m", "greet")
	marker := filepath.Join(t.TempDir(), "ran")
	hook := filepath.Join(t.TempDir(), "hook.sh")
	write(t, filepath.Dir(hook), filepath.Base(hook), "#!/bin/sh\necho \"$0 $*\" >> '"+marker+"'\ncat\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{{"core.fsmonitor", hook}, {"filter.x.clean", hook}, {"filter.x.process", hook}, {"filter.x.required", "true"}, {"diff.x.textconv", hook}} {
		gitE2E(t, root, "config", kv[0], kv[1])
	}
	write(t, root, ".gitattributes", "*.go filter=x diff=x\n")
	write(t, root, "greet.go", "package greet\n\nfunc Greet(name string) string {\n\tif name == \"\" {\n\t\treturn \"hello, you\"\n\t}\n\treturn \"hello, \" + name\n}\n")
	os.Remove(marker)

	c := stdioClient(t, root, "--transport", "stdio")
	waitIndexes(t, c)
	var out struct {
		Impact struct {
			Changed []struct {
				Symbol string `json:"symbol"`
			} `json:"changed"`
		} `json:"impact"`
	}
	res := call(t, c, "svc_search_project", map[string]any{"action": "impact", "diff_base": "HEAD"}, &out)
	if res.IsError || len(out.Impact.Changed) == 0 || !strings.Contains(out.Impact.Changed[0].Symbol, "Greet") {
		t.Errorf("impact of the diff: %+v %v", out, res.Content)
	}
	r := runAgentos(t, root, "graph", "impact", "--diff", "HEAD", "--dir", root)
	if r.code != 0 || !strings.Contains(r.stdout, "Greet") {
		t.Errorf("graph impact --diff: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if data, err := os.ReadFile(marker); err == nil {
		t.Errorf("agentos ran programs the repository's config names:\n%s", data)
	}
}
