package agentconfig

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/agentos-dev/agentos/internal/buildinfo"
	"github.com/agentos-dev/agentos/internal/config"
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
	switch {
	case !pr.Running && stateFileExists(p):
		add(Check{Name: "server", Detail: "stale state file " + p.Rel(p.StateFile()) + ": " + pr.Reason,
			Fix: "restart your primary agent (its server rewrites the file), or delete " + p.StateFile() + " if no agentos server runs for this project"})
	case !pr.Running:
		add(Check{Name: "server", OK: true, Note: true, Detail: "not running yet; your primary agent starts it when it opens the project (or run `" +
			PinnedBinary(p) + " serve --transport dual --project-root " + p.Root + "`)"})
	case pr.Transport != "dual" && pr.Transport != "http":
		add(Check{Name: "server", Detail: "running over " + pr.Transport + " only, so other agents cannot connect",
			Fix: "make the primary client launch `agentos serve --transport dual` (`agentos install --agent NAME --yes`) and restart it"})
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

	found := false
	for _, c := range clients {
		for _, t := range TargetsOf(c, p.Root, env) {
			data, _, exists, err := readFile(t.Path)
			name := c.Name + " (" + Display(t.Path, p.Root, env.Home) + ")"
			if err != nil {
				add(Check{Name: name, Detail: err.Error(), Fix: "make the file readable"})
				continue
			}
			if !exists {
				continue
			}
			entry, ok, err := LookupEntry(c.Format, data, t.Key, ServerName, c.List)
			if err != nil {
				add(Check{Name: name, Detail: "not valid: " + err.Error(), Fix: "fix the file at the line named; the client cannot read it either"})
				continue
			}
			if !ok {
				continue
			}
			if t.Single() {
				if h := holderOf(c, entry); h.Root != "" && !project.SameFolder(h.Root, p.Root) {
					check, ours := singleCheck(name, c, h, p)
					found = found || ours
					add(check)
					continue
				}
			}
			found = true
			check := checkEntry(name, c, t, entry, p, port, cfg.Server.Port)
			add(check)
			if check.OK && t.NeedsTrust(env) {
				if trusted, err := c.Trusted(p.Root, env); err != nil {
					add(Check{Name: c.Name + " trust", Detail: err.Error(), Fix: "fix the file at the line named; " + c.Name + " cannot read it either"})
				} else if !trusted {
					add(Check{Name: c.Name + " trust", Detail: "this folder is not trusted, so " + c.Name + " ignores the project's MCP config",
						Fix: c.TrustHow(p.Root, env)})
				}
			}
		}
	}
	if !found {
		add(Check{Name: "client entries", Detail: "no client config on this machine has an agentos entry for this project",
			Fix: "run `agentos install --agent NAME --yes` (see `agentos agents list`)"})
	}
	return out
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
		a, errA := fileHash(exe)
		b, errB := fileHash(bin)
		if errA == nil && errB == nil && !bytes.Equal(a, b) {
			return Check{Name: "binary", Detail: "the pinned binary is a different build from this agentos " + buildinfo.Get().Version + ", so the installed assets may not match it",
				Fix: "run `agentos install --yes` with the agentos you mean to use"}
		}
	}
	return Check{Name: "binary", OK: true, Detail: p.Rel(bin) + " matches this agentos " + buildinfo.Get().Version}
}

func fileHash(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// checkEntry checks one client entry against what the client needs.
// port is the running server's port (0 when none runs), recorded the port
// mcp.yaml records (0 when none).
func checkEntry(name string, c Client, t Target, e map[string]any, p project.Paths, port, recorded int) Check {
	fix := "run `agentos install --agent " + c.ID + " --yes` (launch entry) or `agentos connect --agent " + c.ID + "` (HTTP entry)"
	bad := func(detail string) Check { return Check{Name: name, Detail: detail, Fix: fix} }
	s := c.Shape
	if raw, ok := firstString(e, "url", "serverUrl", "httpUrl", "uri"); ok {
		if !c.CanHTTP() {
			return bad(c.Name + " cannot speak HTTP; it needs a bridging stdio entry")
		}
		if _, ok := e[s.urlKey()].(string); !ok {
			return bad(fmt.Sprintf("the URL is under the wrong key: %s wants %q", c.Name, s.urlKey()))
		}
		want := c.Emit(HTTPEntry(raw))
		if v, _ := want.Get(s.typeKey()); s.HTTPType != "" && e[s.typeKey()] != v {
			return bad(fmt.Sprintf("transport %s is %v; %s wants %q", s.typeKey(), e[s.typeKey()], c.Name, s.HTTPType))
		}
		if s.HTTPType == "" && e["type"] != nil {
			return bad(fmt.Sprintf("%s takes no type key here (it infers the transport)", c.Name))
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
