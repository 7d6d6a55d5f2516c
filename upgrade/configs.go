package upgrade

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/project"
)

// ourEntry is an agentos entry for this project in a client config, and the
// entry it should be.
type ourEntry struct {
	target agentconfig.Target
	want   agentconfig.Entry
}

// findEntries lists this project's launch and bridge entries in every client
// config on this machine, and each as it should be, running bin. HTTP
// entries name a URL, not the binary, and are left to `agentos connect`;
// unreadable or malformed files are left alone.
func findEntries(p project.Paths, env agentconfig.Env, bin string) []ourEntry {
	var out []ourEntry
	for _, c := range agentconfig.All() {
		for _, t := range agentconfig.TargetsOf(c, p.Root, env) {
			data, err := os.ReadFile(t.Path)
			if err != nil {
				continue
			}
			e, ok, err := agentconfig.LookupEntry(c.Format, data, t.Key, agentconfig.ServerName, c.List)
			if err != nil || !ok {
				continue
			}
			raw, _ := json.Marshal(e)
			text := string(raw)
			forUs := namesFolder(text, p.Root) || (t.Portable && c.WorkspaceVar != "" && strings.Contains(text, c.WorkspaceVar))
			switch {
			case !forUs, strings.Contains(text, `"http://`), strings.Contains(text, `"https://`):
				continue
			case strings.Contains(text, `"--transport","stdio"`):
				out = append(out, ourEntry{target: t, want: agentconfig.Bridge(bin, p.Root)})
			default:
				out = append(out, ourEntry{target: t, want: t.LaunchFor(p.Root, bin)})
			}
		}
	}
	return out
}

// namesFolder reports whether the JSON text of an entry names the folder
// root, or a path inside it, as a whole string: /src/a is not named by an
// entry of /src/ab (a single user-level entry of another project, which an
// upgrade here must not take).
func namesFolder(text, root string) bool {
	q := jsonString(root)
	for i := 0; ; {
		j := strings.Index(text[i:], q)
		if j < 0 {
			return false
		}
		end := i + j + len(q)
		if end == len(text) || text[end] == '"' || text[end] == '/' || strings.HasPrefix(text[end:], `\\`) {
			return true
		}
		i += j + 1
	}
}

// jsonString is s as it appears inside a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// planConfigs plans refreshing this project's entries and, for the clients
// that have one, the rules files and marked blocks agentos wrote that exist.
// Only agentos's own entry and blocks change; everything else in the files
// is kept by agentconfig's merge.
func planConfigs(p project.Paths, env agentconfig.Env, bin string) ([]agentconfig.Change, error) {
	text, err := agentconfig.RulesText()
	if err != nil {
		return nil, err
	}
	var out []agentconfig.Change
	seen := map[string]bool{}
	clients := map[string]bool{}
	for _, oe := range findEntries(p, env, bin) {
		ch, err := agentconfig.PlanEntry(oe.target, oe.want)
		if err != nil {
			return nil, err
		}
		if ch.Action == agentconfig.Updated && !seen[ch.Path] {
			seen[ch.Path] = true
			out = append(out, ch)
		}
		c := oe.target.Client
		if clients[c.ID] {
			continue
		}
		clients[c.ID] = true
		rules, err := agentconfig.PlanRules(c, p.Root, text)
		if err != nil {
			return nil, err
		}
		for _, ch := range rules {
			if ch.Action == agentconfig.Updated && !seen[ch.Path] { // never create one the project deleted
				seen[ch.Path] = true
				out = append(out, ch)
			}
		}
	}
	return out, nil
}

// checkConfigs checks that every entry for this project launches bin as
// install would write it.
func checkConfigs(p project.Paths, env agentconfig.Env, bin string) (int, error) {
	entries := findEntries(p, env, bin)
	for _, oe := range entries {
		ch, err := agentconfig.PlanEntry(oe.target, oe.want)
		if err != nil {
			return 0, err
		}
		if ch.Action != agentconfig.Unchanged {
			return 0, fmt.Errorf("%s: the agentos entry does not launch %s as expected", oe.target.Path, bin)
		}
	}
	return len(entries), nil
}
