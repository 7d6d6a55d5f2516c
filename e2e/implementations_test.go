package e2e

import "testing"

// Through the served tool: the types implementing a Go interface, and the
// calls made through it.
func TestImplementationsE2E(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	writeTree(t, root, map[string]string{
		"go.mod": "module example.com/shop\n\ngo 1.22\n",
		"store/store.go": "package store\n\n// Saver saves an order.\ntype Saver interface{ Save(id string) error }\n\n" +
			"// Disk saves orders on disk.\ntype Disk struct{}\n\nfunc (d *Disk) Save(id string) error { return nil }\n\n" +
			"// Memory keeps orders in memory.\ntype Memory struct{}\n\nfunc (m Memory) Save(id string) error { return nil }\n",
		"web/web.go": "package web\n\nimport \"example.com/shop/store\"\n\n// Handle saves an order.\nfunc Handle(s store.Saver) error { return s.Save(\"1\") }\n",
	})
	_, c := serveSearch(t, root)
	waitIndexes(t, c)

	out := mustSearch(t, c, map[string]any{"action": "find_implementations", "query": "store.Saver"})
	if len(out.Implementations) != 2 || out.Implementations[0].Symbol != "store.Disk" || out.Implementations[1].Symbol != "store.Memory" {
		t.Errorf("implementations: %+v", out.Implementations)
	}
	out = mustSearch(t, c, map[string]any{"action": "find_callers", "query": "Saver.Save"})
	if len(out.Callers) != 1 || out.Callers[0].Symbol != "web.Handle" {
		t.Errorf("callers through the interface: %+v", out.Callers)
	}
}
