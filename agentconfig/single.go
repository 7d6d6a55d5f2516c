package agentconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/ports"
	"github.com/agentos-dev/agentos/internal/project"
)

// A client whose agentos entry lives in a user-level file that is not keyed
// by project (Cline, Windsurf, Claude Desktop and Goose, which have no
// project file, and any client written with --scope user) has one entry
// for every project on the machine: whichever project wrote it last is the
// one every window of that client reaches. Rewriting it from another
// project silently moves the first project's agent onto the second one's
// server, so install and connect refuse to take it from a project that
// still exists unless the person says so (--replace, or yes in the
// wizard), and doctor in the project that lost it fails with the fix.

// Single reports whether t is a client's one agentos entry for all
// projects: a user-level file with no per-project section. Claude Code's
// local scope is keyed by project, so it is not.
func (t Target) Single() bool { return t.Scope == ScopeUser }

// Holder is the project an existing agentos entry serves.
type Holder struct {
	// Root is the project's root folder; "" when the entry does not say
	// (an HTTP entry whose port no project on this machine records).
	Root string
	// Kind is "launch entry", "bridging stdio entry" or "HTTP entry".
	Kind string
	// Gone says why the project can no longer use the entry (its folder,
	// or the .agentos/ in it, no longer exists); "" when it still can.
	Gone string
}

// Displaced reads t's agentos entry and returns the project it serves when
// writing root's entry there would take the entry from that project: t is
// single, holds an entry, and the entry names another project. ok is false
// otherwise, also when the file cannot be read or parsed, which the write
// itself then reports with its own message.
func Displaced(t Target, root string) (Holder, bool) {
	if !t.Single() {
		return Holder{}, false
	}
	data, _, exists, err := readFile(t.Path)
	if err != nil || !exists {
		return Holder{}, false
	}
	e, ok, err := LookupEntry(t.Client.Format, data, t.Key, ServerName, t.Client.List)
	if err != nil || !ok {
		return Holder{}, false
	}
	h := holderOf(t.Client, e)
	if h.Root == "" || project.SameFolder(h.Root, root) {
		return Holder{}, false
	}
	return h, true
}

// holderOf reads which project an entry of c serves: env.PROJECT_ROOT of a
// launch or bridging entry, or for an HTTP entry the project that recorded
// the URL's port on this machine.
func holderOf(c Client, e map[string]any) Holder {
	var h Holder
	if raw, ok := firstString(e, "url", "serverUrl", "httpUrl", "uri"); ok {
		h = Holder{Kind: "HTTP entry", Root: portHolder(raw)}
	} else {
		_, args := entryCommand(c, e)
		h.Kind = "launch entry"
		if strings.Contains(strings.Join(args, " "), "--transport stdio") {
			h.Kind = "bridging stdio entry"
		}
		env, _ := e[c.Shape.envKey()].(map[string]any)
		if root, _ := env[EnvRoot].(string); filepath.IsAbs(root) {
			h.Root = filepath.Clean(root)
		}
	}
	if h.Root != "" {
		h.Gone = goneReason(h.Root)
	}
	return h
}

// portHolder is the project that records the port of url in this machine's
// ports record (internal/ports), or "" when none does. The record is read,
// never written: it is written atomically, so no lock is needed to read it.
func portHolder(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		return ""
	}
	path, err := ports.Path()
	if err != nil {
		return ""
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var rec struct {
		Projects map[string]int `json:"projects"`
	}
	if json.Unmarshal(data, &rec) != nil {
		return ""
	}
	var roots []string
	for root, p := range rec.Projects {
		if p == port && filepath.IsAbs(root) {
			roots = append(roots, root)
		}
	}
	sort.Strings(roots)
	for _, root := range roots {
		if goneReason(root) == "" {
			return root
		}
	}
	if len(roots) > 0 {
		return roots[0]
	}
	return ""
}

// goneReason says why the project at root can no longer use an entry: its
// folder is gone, or agentos was removed from it (the entry's pinned binary
// and config went with .agentos/). "" when it can, or when that cannot be
// told (a folder that cannot be read is not gone).
func goneReason(root string) string {
	if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		return "its folder no longer exists"
	}
	if _, err := os.Stat(filepath.Join(root, project.Dir)); errors.Is(err, fs.ErrNotExist) {
		return "agentos is no longer installed there"
	}
	return ""
}

// Takeover is writing the entry of the project at Root into a single entry
// that serves another project, From.
type Takeover struct {
	Target Target
	From   Holder
	Root   string
}

// Question is the yes/no question a person answers before the entry moves.
func (k Takeover) Question() string {
	name := k.Target.Client.Name
	return fmt.Sprintf("%s's one agentos entry points at %s; point it at %s instead? %s in %s will then reach %s.",
		name, k.From.Root, k.Root, name, k.From.Root, k.Root)
}

// Note says, for the report of the install or connect that wrote the
// entry, which project it was taken from.
func (k Takeover) Note() string {
	name := k.Target.Client.Name
	if k.From.Gone != "" {
		return fmt.Sprintf("%s's one agentos entry served %s, where %s, so it was replaced without asking; it now serves this project.", name, k.From.Root, k.From.Gone)
	}
	return fmt.Sprintf("Repointed %s's one agentos entry from %s to this project: %s in %s now reaches this project.", name, k.From.Root, name, k.From.Root)
}

// TakeoverError refuses to take single entries from other projects that
// still exist when the person has not said to.
type TakeoverError struct {
	Takeovers []Takeover
}

func (e *TakeoverError) Error() string {
	var parts []string
	for _, k := range e.Takeovers {
		name := k.Target.Client.Name
		parts = append(parts, fmt.Sprintf("%s keeps one agentos entry for all projects (in %s), and it serves %s, which still exists; pointing it at %s would make %s in %s reach %s instead",
			name, k.Target.Path, k.From.Root, k.Root, name, k.From.Root, k.Root))
	}
	return strings.Join(parts, "; ") + ". Nothing was changed: run the command again with --replace to point it at this project anyway"
}

// SingleRecord is the file, in the project's machine-only cache, that names
// the clients whose single entry agentos wrote for the project, and the
// kind of entry, so that doctor can tell a project that lost the entry to
// another one from a project that never had it.
func SingleRecord(p project.Paths) string { return filepath.Join(p.Cache(), "single-entries.json") }

// Entry kinds kept in the record, which decide the command that rewrites
// the entry: install for a launch entry, connect for the others.
const (
	KindLaunch = "launch"
	KindShared = "shared" // an HTTP or bridging stdio entry
)

// KindOf is the record's kind of e.
func KindOf(e Entry) string {
	if e.IsHTTP() || strings.Contains(strings.Join(e.Args, " "), "--transport stdio") {
		return KindShared
	}
	return KindLaunch
}

// RecordSingle notes that agentos wrote c's single entry, of kind, for the
// project. The record only guides doctor, so a damaged one is replaced.
func RecordSingle(p project.Paths, c Client, kind string) error {
	path := SingleRecord(p)
	rec := readSingleRecord(p)
	if rec[c.ID] == kind {
		return nil
	}
	rec[c.ID] = kind
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("record %s's entry in %s: %w", c.Name, path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("record %s's entry: %w", c.Name, err)
	}
	if err := atomicfile.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("record %s's entry in %s: %w", c.Name, path, err)
	}
	return nil
}

func readSingleRecord(p project.Paths) map[string]string {
	rec := map[string]string{}
	if data, err := os.ReadFile(SingleRecord(p)); err == nil {
		if json.Unmarshal(data, &rec) != nil || rec == nil {
			rec = map[string]string{}
		}
	}
	return rec
}

// usedSingle reports whether the project had c's single entry, and of
// which kind: from the record, else (a project installed before the
// record existed) from the client's own rules file that install writes
// beside the entry.
func usedSingle(p project.Paths, c Client) (string, bool) {
	if kind, ok := readSingleRecord(p)[c.ID]; ok {
		return kind, true
	}
	for _, rf := range c.Rules {
		if rf.Shared {
			continue // AGENTS.md and the like are read by many clients
		}
		if _, err := os.Stat(filepath.Join(p.Root, filepath.FromSlash(rf.Path))); err == nil {
			return KindLaunch, true
		}
	}
	return "", false
}

// ReplaceHow is the command that points c's single entry back at this
// project, for an entry of kind.
func ReplaceHow(c Client, kind string) string {
	if kind == KindShared {
		return "agentos connect --agent " + c.ID + " --replace"
	}
	return "agentos install --agent " + c.ID + " --replace --yes"
}
