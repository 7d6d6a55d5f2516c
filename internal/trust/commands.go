package trust

import (
	"io/fs"
	"os"
	"path"
	"sort"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/internal/project"
)

// WorkflowKey is the key under which Settings lists a command a project's
// workflow definition adds: "workflows/<name>/workflow.yaml".
const workflowKeyPrefix = "workflows/"

// workflowCommands lists, for each definition under the project's
// .agentos/workflows, the commands (`run:` values) its gates would run that
// no built-in definition runs: a definition a repository brings can add a
// command check to any gate, which runs as the test command does. Every
// `run` key anywhere in the file counts, so no shape of the file hides one.
func workflowCommands(p project.Paths) []Setting {
	known := builtinRuns()
	var out []Setting
	byFile := runsIn(os.DirFS(p.Workflows()))
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		for _, r := range byFile[f] {
			if !known[r] {
				out = append(out, Setting{Key: workflowKeyPrefix + f, Value: r, What: "a command this workflow's gate runs"})
			}
		}
	}
	return out
}

// builtinRuns are the commands the built-in definitions run, read once:
// they are compiled in, and Check runs on every look at the settings (the
// review page polls it).
var builtinRuns = sync.OnceValue(func() map[string]bool {
	known := map[string]bool{}
	if builtin, err := assets.Sub(assets.Workflows); err == nil {
		for _, runs := range runsIn(builtin) {
			for _, r := range runs {
				known[r] = true
			}
		}
	}
	return known
})

// runsIn maps each <name>/workflow.yaml of root to the `run` values in it.
func runsIn(root fs.FS) map[string][]string {
	out := map[string][]string{}
	entries, _ := fs.ReadDir(root, ".")
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := path.Join(e.Name(), "workflow.yaml")
		data, err := fs.ReadFile(root, name)
		if err != nil {
			continue
		}
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) != nil {
			continue // an invalid definition is refused by the workflow library
		}
		out[name] = collectRuns(&doc, out[name])
	}
	return out
}

func collectRuns(n *yaml.Node, acc []string) []string {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k, v := n.Content[i], n.Content[i+1]; k.Value == "run" && v.Kind == yaml.ScalarNode {
				acc = append(acc, v.Value)
			}
		}
	}
	for _, c := range n.Content {
		acc = collectRuns(c, acc)
	}
	return acc
}

// UntrustedWorkflows names the project's workflow definitions whose added
// commands wait for the person (State.Pending), by file under
// .agentos/workflows: the workflow library loads the built-in definition
// in their place.
func (s State) UntrustedWorkflows() map[string]bool {
	out := map[string]bool{}
	for _, set := range s.Pending() {
		if len(set.Key) > len(workflowKeyPrefix) && set.Key[:len(workflowKeyPrefix)] == workflowKeyPrefix {
			out[set.Key[len(workflowKeyPrefix):]] = true
		}
	}
	return out
}
