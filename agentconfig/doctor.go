package agentconfig

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentos-dev/agentos/internal/shellquote"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/internal/buildinfo"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/filecmp"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server"
)

// Check is one diagnosis: what was checked, whether it holds, and what to
// do when it does not.
type Check struct {
	Name string `json:"name"`
	OK   bool   `json:"ok"`
	// Note marks a passing check that still has something to say: the
	// server is not running yet, which is how a project starts.
	Note   bool   `json:"note,omitempty"`
	Detail string `json:"detail,omitempty"`
	Fix    string `json:"fix,omitempty"`
}

// Diagnose runs every check of `agentos doctor` on the project: the causes
// of "Failed to connect" one by one.
func Diagnose(ctx context.Context, p project.Paths, env Env) []Check {
	var out []Check
	add := func(c Check) { out = append(out, c) }

	cfg, err := config.Load(p.Config())
	if err != nil {
		add(Check{Name: "config", Detail: err.Error(), Fix: "fix .agentos/config/mcp.yaml at the line named, or delete it and run `agentos install --yes`"})
	} else {
		add(Check{Name: "config", OK: true, Detail: p.Rel(p.Config()) + " loads"})
	}

	add(checkBinary(p))

	pr := server.ProbeProject(ctx, p)
	port := 0
	serverAt := len(out) // the server check, whose fix names clients found below
	switch {
	case !pr.Running && stateFileExists(p):
		add(Check{Name: "server", Detail: "stale state file " + p.Rel(p.StateFile()) + ": " + pr.Reason,
			Fix: "restart your primary agent (its server rewrites the file), or delete " + p.StateFile() + " if no agentos server runs for this project"})
	case !pr.Running:
		add(Check{Name: "server", OK: true, Note: true, Detail: "not running yet; your primary agent starts it when it opens the project (or run `" +
			shellquote.Command(PinnedBinary(p), "serve", "--transport", "dual", "--dir", p.Root) + "`)"})
	case pr.Transport != "dual" && pr.Transport != "http":
		add(Check{Name: "server", Detail: "running over " + pr.Transport + " only, so other agents cannot connect",
			Fix: "stop the server (pid " + strconv.Itoa(pr.PID) + "), which was started with `agentos serve --transport stdio`, and restart your primary agent, which launches `serve --transport dual`"})
	default:
		add(Check{Name: "server", OK: true, Detail: fmt.Sprintf("running in %s mode at %s (pid %d)", pr.Transport, pr.URL, pr.PID)})
		if pr.State != nil {
			token := ""
			if pr.State.Auth == "token" {
				token, _ = server.ReadToken(p)
			}
			if c, ok := checkIndexes(ctx, pr.URL, token); ok {
				add(c)
			}
			port = pr.State.Port
			if v := buildinfo.Get().Version; pr.State.ServerVersion != "" && pr.State.ServerVersion != v {
				add(Check{Name: "server version", Detail: fmt.Sprintf("the running server is %s, this agentos is %s", pr.State.ServerVersion, v),
					Fix: "restart the primary agent so it launches the installed binary"})
			}
		}
	}

	// The entries are read first, so that a bridging entry's check knows
	// whether any agent launches the shared server.
	type item struct {
		ready *Check // a check made while reading (an unreadable file)
		name  string
		c     Client
		t     Target
		e     map[string]any
	}
	var items []item
	var present []Client // clients with a config file here, with or without an entry
	found, launches := false, false
	var stdioIDs, stdioNames []string // clients whose entry runs `serve --transport stdio`
	for _, c := range clients {
		seen := false
		for _, t := range TargetsOf(c, p.Root, env) {
			data, _, exists, err := readFile(t.Path)
			name := c.Name + " (" + Display(t.Path, p.Root, env.Home) + ")"
			if err != nil {
				items = append(items, item{ready: &Check{Name: name, Detail: err.Error(), Fix: "make the file readable"}})
				continue
			}
			if !exists {
				continue
			}
			if !seen {
				seen = true
				present = append(present, c)
			}
			entry, ok, err := LookupEntry(c.Format, data, t.Key, ServerName, c.List)
			if err != nil {
				items = append(items, item{ready: &Check{Name: name, Detail: "not valid: " + err.Error(), Fix: "fix the file at the line named; the client cannot read it either"}})
				continue
			}
			if !ok {
				continue
			}
			if t.Single() {
				if h := holderOf(c, entry); h.Root != "" && !project.SameFolder(h.Root, p.Root) {
					check, ours := singleCheck(name, c, h, p)
					found = found || ours
					items = append(items, item{ready: &check})
					continue
				}
			}
			found = true
			if !isHTTPEntry(entry) {
				_, args := entryCommand(c, entry)
				switch {
				case isBridgeEntry(c, entry):
					stdioIDs, stdioNames = append(stdioIDs, c.ID), append(stdioNames, c.Name)
				case strings.Contains(strings.Join(args, " "), "--transport dual"):
					launches = true
				}
			}
			items = append(items, item{name: name, c: c, t: t, e: entry})
		}
	}
	if pr.Running && pr.Transport == "stdio" && len(stdioIDs) > 0 {
		// The server that runs over stdio only was most likely launched by
		// one of these entries: name the clients instead of a placeholder.
		var cmds []string
		for _, id := range stdioIDs {
			cmds = append(cmds, "`agentos install --agent "+id+" --yes`")
		}
		out[serverAt].Fix = "make " + strings.Join(stdioNames, " and ") + " launch `agentos serve --transport dual`: run " + strings.Join(cmds, " and ") +
			", then restart " + strings.Join(stdioNames, " and ")
	}
	shared := pr.Running && pr.URL != "" // a server other agents can reach
	for _, it := range items {
		if it.ready != nil {
			add(*it.ready)
			continue
		}
		c, t := it.c, it.t
		check := checkEntry(it.name, c, t, it.e, p, port, cfg.Server.Port)
		if check.OK && !shared && isBridgeEntry(c, it.e) {
			check = bridgeCheck(check, c, launches, pr.Running)
		}
		add(check)
		if check.OK && t.NeedsTrust(env) {
			if trusted, err := c.Trusted(p.Root, env); err != nil {
				add(Check{Name: c.Name + " trust", Detail: err.Error(), Fix: "fix the file at the line named; " + c.Name + " cannot read it either"})
				continue
			} else if !trusted {
				add(Check{Name: c.Name + " trust", Detail: "this folder is not trusted, so " + c.Name + " ignores the project's MCP config",
					Fix: c.TrustHow(p.Root, env)})
				continue
			}
		}
		if check.OK && t.ApproveHow() != "" && c.Approvals != nil {
			add(approvalCheck(c, p.Root, env, it.e))
		}
	}
	if !found {
		add(Check{Name: "client entries", Detail: "no client config on this machine has an agentos entry for this project",
			Fix: installHow(present)})
	}
	return out
}

// switchedOff says how e is turned off, for a client whose entries agentos
// writes with enabled: true (opencode, Kilo, Goose) or disabled: false
// (Cline, Amazon Q, Kiro): opencode 1.18 lists an entry with enabled: false
// as disabled and starts nothing. "" when e is on.
func switchedOff(s Shape, e map[string]any) string {
	for _, extra := range []map[string]any{s.StdioExtra, s.HTTPExtra} {
		if extra["enabled"] == true && e["enabled"] == false {
			return "the entry has enabled: false"
		}
		if extra["disabled"] == false && e["disabled"] == true {
			return "the entry has disabled: true"
		}
	}
	return ""
}

// isHTTPEntry reports whether e is an HTTP entry in any client's spelling.
func isHTTPEntry(e map[string]any) bool {
	_, ok := firstKey(e, "url", "serverUrl", "httpUrl", "uri")
	return ok
}

// isBridgeEntry reports whether e is a launch entry that runs `serve
// --transport stdio`, which bridges to the project's running server.
func isBridgeEntry(c Client, e map[string]any) bool {
	if isHTTPEntry(e) {
		return false
	}
	_, args := entryCommand(c, e)
	return strings.Contains(strings.Join(args, " "), "--transport stdio")
}

// bridgeCheck judges a stdio-only client's bridging entry while no server
// other agents can reach runs. `serve --transport stdio` bridges to a
// running server; with none, it serves its own client over stdio only, and
// every later server of the project exits. So the entry works only where
// another agent's launch entry starts the shared server first. running is
// true when a server runs over stdio only, which no bridge can reach.
func bridgeCheck(check Check, c Client, launches, running bool) Check {
	fix := "run `agentos install --agent " + c.ID + " --yes` to make " + c.Name + " the primary (its entry then launches `serve --transport dual`)"
	switch {
	case running:
		return Check{Name: check.Name, Detail: "bridging stdio entry, but the server runs over stdio only, so there is nothing to bridge to: " + c.Name + "'s server exits",
			Fix: "restart the server in dual mode (see the server check), or " + fix}
	case launches:
		check.Note = true
		check.Detail += "; it bridges to the server a primary agent launches, so open a primary first (" + c.Name + " opened before any would serve itself alone, over stdio)"
		return check
	}
	return Check{Name: check.Name,
		Detail: "bridging stdio entry, but no server runs and no agent's entry launches one in dual mode: " + c.Name + " would start a server over stdio that serves it alone, and no other agent could connect",
		Fix:    fix + ", or start the primary agent before " + c.Name}
}

// approvalCheck says whether c has approved the project's entry e, which
// it otherwise shows as pending and does not start. Qwen Code binds the
// approval to the entry's content, so an entry agentos rewrote since (a
// connect after the port moved) is pending again. Qwen Code has no setting
// that approves a project server ahead of time (trust: true on the entry
// only spares the confirmation of each tool call), so the fix is the
// person's own approval. A setting the person chose that skips approvals
// altogether (Qwen Code's yolo mode) makes a missing approval a note.
func approvalCheck(c Client, root string, env Env, e map[string]any) Check {
	name := c.Name + " approval"
	file := Display(c.ApprovalPath(env), "", env.Home)
	how := "run `" + c.Approve + "` in " + root + ", or choose \"Approve this server\" when " + c.Name + " asks as it starts there"
	state, err := c.ApprovalState(root, env, e)
	switch {
	case err != nil:
		return Check{Name: name, Detail: err.Error(), Fix: "fix the file at the line named; " + c.Name + " cannot read it either, so it approves nothing"}
	case state == Approved:
		return Check{Name: name, OK: true, Detail: c.Name + " approved this entry (" + file + ")"}
	case c.Approvals.Bypass != nil:
		setting, where, err := c.Approvals.Bypass(c, root, env)
		if err != nil {
			return Check{Name: name, Detail: err.Error(), Fix: "fix the file at the line named; " + c.Name + " cannot read it either"}
		}
		if setting != "" {
			return Check{Name: name, OK: true, Note: true, Detail: c.Name + " has not approved this entry (its MCP list shows \"Pending approval\"), but " + setting + " in " +
				Display(where, root, env.Home) + " has it start project servers without asking; approve it (`" + c.Approve + "`) to keep it when that setting changes"}
		}
	}
	switch {
	case state == Rejected:
		return Check{Name: name, Detail: c.Name + " records this entry as rejected (" + file + "), so it does not start it", Fix: how}
	case state == PendingChanged:
		return Check{Name: name, Detail: "the entry changed since " + c.Name + " approved it (the approval in " + file + " is bound to the entry's content), so " +
			c.Name + " shows the agentos server as \"Pending approval\" again and does not start it", Fix: how}
	}
	return Check{Name: name, Detail: c.Name + " has not approved the project's agentos server, so it shows it as \"Pending approval\" and does not start it", Fix: how}
}

// installHow is the fix when no client has an entry for the project: the
// install command for the clients whose config files are on this machine.
func installHow(present []Client) string {
	switch len(present) {
	case 0:
		return "run `agentos install --agent ID --yes` with the id of the agent you use here (see `agentos agents list`)"
	case 1:
		return "run `agentos install --agent " + present[0].ID + " --yes` (" + present[0].Name + " has a config file on this machine)"
	}
	var ids []string
	for _, c := range present {
		ids = append(ids, c.ID)
	}
	return "run `agentos install --agent ID --yes` for the agent you use here: the agents with a config file on this machine are " +
		strings.Join(ids, ", ") + " (see `agentos agents list`)"
}

func stateFileExists(p project.Paths) bool {
	_, err := os.Lstat(p.StateFile())
	return err == nil
}

// TargetsOf lists every file where c may hold an entry for the project.
func TargetsOf(c Client, root string, env Env) []Target {
	var out []Target
	seen := map[string]bool{}
	for _, s := range []Scope{ScopeProject, ScopeLocal, ScopeUser} {
		if t, err := c.TargetFor(root, s, env); err == nil {
			id := t.Path + "\x00" + strings.Join(t.Key, "\x00")
			if seen[id] {
				continue // Continue's block file is both its project and its local file
			}
			seen[id] = true
			out = append(out, t)
		}
	}
	return out
}

// checkBinary checks the pinned binary: present, runnable, and the same
// build as this agentos (whose assets install wrote).
func checkBinary(p project.Paths) Check {
	bin := PinnedBinary(p)
	fi, err := os.Stat(bin)
	if err != nil {
		// Installed with --no-pin: the entries run an agentos outside the
		// project, and each entry's check below says whether it exists.
		return Check{Name: "binary", OK: true, Detail: "no pinned copy in " + p.Rel(p.Bin()) + "/ (installed with --no-pin): launch entries run the agentos they name"}
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0 {
		return Check{Name: "binary", Detail: p.Rel(bin) + " is not executable", Fix: "chmod +x " + bin}
	}
	exe, err := os.Executable()
	if err == nil {
		if same, err := filecmp.Same(exe, bin); err == nil && !same {
			return otherBuild(p, bin)
		}
	}
	return Check{Name: "binary", OK: true, Detail: p.Rel(bin) + " matches this agentos " + buildinfo.Get().Version}
}

// otherBuild judges a pinned binary whose bytes differ from this one's: a
// build of the same source (go run and go install of one clone differ in
// bytes only) passes; two development builds that cannot be told apart get
// a note; another version or commit fails, as the project's assets may not
// match it.
func otherBuild(p project.Paths, bin string) Check {
	this := buildinfo.Get()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "version", "--json").Output()
	var pinned buildinfo.Info
	if err == nil {
		err = json.Unmarshal(out, &pinned)
	}
	fix := "run `agentos install --yes` with the agentos you mean to use"
	switch {
	case err != nil:
		return Check{Name: "binary", Detail: p.Rel(bin) + " does not say its version (" + err.Error() + ")", Fix: fix}
	case buildinfo.SameSource(this, pinned):
		return Check{Name: "binary", OK: true, Detail: p.Rel(bin) + " is another build of this agentos " + describeBuild(this)}
	case this.Version == "dev" && pinned.Version == "dev" && this.Commit == "" && pinned.Commit == "":
		return Check{Name: "binary", OK: true, Note: true, Detail: p.Rel(bin) + " is another development build than this one, and neither records the commit it was built from; if agentos changed since the install, " + fix[4:]}
	case this.Version == "dev" && pinned.Version == "dev" && (this.Commit == "" || pinned.Commit == "" || this.Modified || pinned.Modified):
		return Check{Name: "binary", OK: true, Note: true, Detail: p.Rel(bin) + " is another development build (" + describeBuild(pinned) + ") than this one (" + describeBuild(this) + "); if agentos changed since the install, " + fix[4:]}
	}
	return Check{Name: "binary", Detail: p.Rel(bin) + " is agentos " + describeBuild(pinned) + ", this is " + describeBuild(this) + ", so the installed assets may not match it", Fix: fix}
}

// describeBuild is a build's version and, for a development build, its commit.
func describeBuild(i buildinfo.Info) string {
	s := i.Version
	if i.Commit != "" {
		s += fmt.Sprintf(" (%.12s", i.Commit)
		if i.Modified {
			s += ", with uncommitted changes"
		}
		s += ")"
	}
	return s
}

// checkEntry checks one client entry against what the client needs.
// port is the running server's port (0 when none runs), recorded the port
// mcp.yaml records (0 when none).
func checkEntry(name string, c Client, t Target, e map[string]any, p project.Paths, port, recorded int) Check {
	fix := "run `agentos install --agent " + c.ID + " --yes` (launch entry) or `agentos connect --agent " + c.ID + "` (HTTP entry)"
	bad := func(detail string) Check { return Check{Name: name, Detail: detail, Fix: fix} }
	s := c.Shape
	if off := switchedOff(s, e); off != "" {
		return bad(off + ", so " + c.Name + " does not start it")
	}
	if found, ok := firstKey(e, "url", "serverUrl", "httpUrl", "uri"); ok {
		if !c.CanHTTP() {
			return bad(c.Name + " cannot speak HTTP; it needs a bridging stdio entry")
		}
		form, raw, why := c.readHTTP(e, found)
		if why != "" {
			return bad(why)
		}
		u, err := url.Parse(raw)
		if err != nil {
			return bad("the URL does not parse: " + err.Error())
		}
		if u.Hostname() != "127.0.0.1" {
			return Check{Name: name, Detail: "the URL host is " + u.Hostname() + ", not 127.0.0.1 (the server binds 127.0.0.1 only; localhost may resolve to ::1)", Fix: "`agentos connect --agent " + c.ID + "` rewrites it"}
		}
		if u.Path != "/mcp" {
			return bad("the URL path is " + u.Path + ", not /mcp")
		}
		if port != 0 && u.Port() != strconv.Itoa(port) {
			if recorded != 0 && u.Port() == strconv.Itoa(recorded) {
				// The entry is right; the server is on a fallback port until
				// its own is free (the server port check says what holds it).
				return Check{Name: name, Detail: fmt.Sprintf("points at the project's port %d, where this server cannot listen now (it runs on %d), so it reaches whatever holds that port", recorded, port),
					Fix: "free port " + strconv.Itoa(recorded) + " (see the server port check) and restart the server; do not point the entry at the fallback port"}
			}
			return Check{Name: name, Detail: fmt.Sprintf("stale: points at port %s but the server listens on %d", u.Port(), port), Fix: "run `agentos connect --agent " + c.ID + "`"}
		}
		if port == 0 && recorded != 0 && u.Port() != strconv.Itoa(recorded) {
			return Check{Name: name, Detail: fmt.Sprintf("stale: points at port %s but the project's port (server.port in .agentos/config/mcp.yaml) is %d", u.Port(), recorded),
				Fix: "run `agentos connect --agent " + c.ID + "` once the server runs"}
		}
		if form.Old != "" {
			// An older form the client still reads: it works, and the next
			// connect writes the current one.
			return Check{Name: name, OK: true, Note: true, Detail: fmt.Sprintf("HTTP entry %s, spelled %s (%s); `agentos connect --agent %s` writes %s",
				raw, form.describe(s.typeKey()), form.Old, c.ID, writtenForm(s).describe(s.typeKey()))}
		}
		return Check{Name: name, OK: true, Detail: "HTTP entry " + raw}
	}
	cmd, args := entryCommand(c, e)
	if cmd == "" {
		return bad("the entry has neither a command nor a URL")
	}
	// A launch entry is rewritten by install, a bridging one by connect.
	if strings.Contains(strings.Join(args, " "), "--transport stdio") {
		fix = "run `agentos connect --agent " + c.ID + "`"
	} else {
		fix = "run `agentos install --agent " + c.ID + " --yes`"
	}
	resolved := cmd
	if c.WorkspaceVar != "" && t.Scope == ScopeProject && strings.HasPrefix(cmd, c.WorkspaceVar) {
		resolved = filepath.Join(p.Root, filepath.FromSlash(strings.TrimPrefix(cmd, c.WorkspaceVar)))
	} else if !filepath.IsAbs(cmd) {
		return bad("the command " + cmd + " is not an absolute path; clients start servers from an unpredictable folder")
	}
	if _, err := os.Stat(resolved); errors.Is(err, fs.ErrNotExist) {
		return bad("the command " + resolved + " does not exist")
	}
	joined := strings.Join(args, " ")
	if !strings.Contains(joined, "serve") {
		return bad("the arguments do not run `serve`")
	}
	env, _ := e[s.envKey()].(map[string]any)
	root, _ := env[EnvRoot].(string)
	if root != p.Root && root != c.WorkspaceVar {
		// A single user-level entry for another project is singleCheck's.
		return bad(fmt.Sprintf("env.%s is %q, not %s", EnvRoot, root, p.Root))
	}
	mode := "launch entry"
	if strings.Contains(joined, "--transport stdio") {
		if c.CanHTTP() {
			// agentos writes a stdio entry only for a client that cannot
			// speak HTTP. Launched before any other agent, it serves this
			// client alone, with no HTTP endpoint, and every later server
			// of the project exits.
			return Check{Name: name, Detail: "the entry runs `serve --transport stdio`: when " + c.Name + " starts first, the server serves it alone with no HTTP endpoint, so no other agent can connect; " +
				c.Name + " speaks HTTP, so it takes a launch entry (`--transport dual`) or an HTTP entry",
				Fix: "run `agentos install --agent " + c.ID + " --yes` to make " + c.Name + " a primary again, or `agentos connect --agent " + c.ID + "` to point it at the running server"}
		}
		mode = "bridging stdio entry"
	} else if !strings.Contains(joined, "--transport dual") {
		return bad("the launch entry does not use --transport dual, so other agents cannot share the server")
	}
	return Check{Name: name, OK: true, Detail: mode + " " + cmd}
}

// singleCheck judges a client's single user-level entry that serves
// another project. In a project that had the entry (it lost it to the other
// project's install or connect), that fails: the client, opened here,
// reaches the other project's server. In a project that never had it, it is
// a note, not a failure: ours reports whether the project had it.
func singleCheck(name string, c Client, h Holder, p project.Paths) (check Check, ours bool) {
	kind, used := usedSingle(p, c)
	if !used {
		return Check{Name: name, OK: true, Note: true,
			Detail: fmt.Sprintf("%s keeps one agentos entry for all projects; it serves another project (%s), and this project has not used it", c.Name, h.Root)}, false
	}
	if h.Gone != "" {
		fix := "agentos install --agent " + c.ID + " --yes"
		if kind == KindShared {
			fix = "agentos connect --agent " + c.ID
		}
		return Check{Name: name, Detail: fmt.Sprintf("%s keeps one agentos entry for all projects, and it serves %s, where %s, not this project", c.Name, h.Root, h.Gone),
			Fix: "run `" + fix + "` here to point it at this project"}, true
	}
	return Check{Name: name,
		Detail: fmt.Sprintf("%s keeps one agentos entry for all projects, and it now serves %s, not this project: %s opened here reaches %s's server", c.Name, h.Root, c.Name, h.Root),
		Fix:    fmt.Sprintf("run `%s` here to point it back at this project (%s in %s will then reach this one)", ReplaceHow(c, kind), c.Name, h.Root)}, true
}

// firstKey is the first of keys whose value in m is a non-empty string.
func firstKey(m map[string]any, keys ...string) (string, bool) {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return k, true
		}
	}
	return "", false
}

// readHTTP finds the form in which c reads e as streamable HTTP, in the
// order c looks for them, and the URL it takes. found is a key holding a
// URL; why says what is wrong when c reads no form of e as streamable
// HTTP (a URL under a key it reads as SSE, or a type it reads so).
func (c Client) readHTTP(e map[string]any, found string) (form HTTPForm, raw, why string) {
	s := c.Shape
	tk := s.typeKey()
	typ, hasType := e[tk]
	var current, old []string // the forms it reads, the one agentos writes first
	keyKnown := false
	for _, f := range s.httpForms() {
		if f.Old == "" {
			current = append(current, f.describe(tk))
		} else {
			old = append(old, f.describe(tk))
		}
		u, ok := e[f.URLKey].(string)
		if !ok || u == "" {
			continue
		}
		keyKnown = true
		if f.AnyType || (f.Type == "" && !hasType) || (f.Type != "" && typ == f.Type) {
			return f, u, ""
		}
	}
	reads := strings.Join(append(current, old...), ", or ")
	if !keyKnown {
		return HTTPForm{}, "", fmt.Sprintf("the URL is under the wrong key %q: %s reads an HTTP entry as %s", found, c.Name, reads)
	}
	if !hasType {
		return HTTPForm{}, "", fmt.Sprintf("the entry has no %s key; %s reads an HTTP entry as %s", tk, c.Name, reads)
	}
	return HTTPForm{}, "", fmt.Sprintf("%s is %v, which %s does not read as streamable HTTP; it reads an HTTP entry as %s", tk, jsonText(typ), c.Name, reads)
}

// writtenForm is the form agentos writes c's HTTP entry in.
func writtenForm(s Shape) HTTPForm {
	return HTTPForm{URLKey: s.urlKey(), Type: s.HTTPType}
}

// jsonText renders a decoded value as it reads in the file.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func firstString(m map[string]any, keys ...string) (string, bool) {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return s, true
		}
	}
	return "", false
}

// entryCommand reads the command and arguments of a launch entry in c's shape.
func entryCommand(c Client, e map[string]any) (string, []string) {
	var parts []string
	switch v := e[c.Shape.commandKey()].(type) {
	case string:
		parts = append(parts, v)
	case []any:
		for _, x := range v {
			s, _ := x.(string)
			parts = append(parts, s)
		}
	}
	if a, ok := e["args"].([]any); ok {
		for _, x := range a {
			s, _ := x.(string)
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return "", nil
	}
	return parts[0], parts[1:]
}
