//go:build unix

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// notInstalled fails the test unless root holds no trace of a running or
// installed agentos: no config folder, no cache, no state file; and stays so
// for a moment, so that nothing still running writes them again.
func notInstalled(t *testing.T, root string) {
	t.Helper()
	paths := []string{
		filepath.Join(root, ".agentos", "config"),
		filepath.Join(root, ".agentos", ".cache"),
		statePath(root),
	}
	for range 2 {
		for _, p := range paths {
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Errorf("%s is there (%v)", p, err)
			}
		}
		time.Sleep(1500 * time.Millisecond)
	}
}

// Uninstall stops the project's running server (and the bridge of a second
// agent that takes over from it) before it removes anything; nothing writes
// .agentos/ again afterwards.
func TestUninstallStopsTheRunningServer(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	srv := startServe(t, root, "--transport", "dual")
	st := waitState(t, root, srv.cmd.Process.Pid)
	bridge := stdioClient(t, root) // a second agent: bridged, standing by to take over
	if si := getInfo(t, bridge); si.Server.PID != st.PID {
		t.Fatalf("the second agent reached pid %d, not the primary %d", si.Server.PID, st.PID)
	}

	r := runAgentos(t, root, "uninstall", "--yes", "--backup-dir", t.TempDir())
	if r.code != 0 {
		t.Fatalf("uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		fmt.Sprintf("The server running for this project (pid %d) is stopped first.", st.PID),
		fmt.Sprintf("agentos stopped the running server (pid %d, dual)", st.PID),
		"agentos is removed from",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if code := srv.exitCode(t); code != 0 {
		t.Errorf("the server exited %d, not cleanly; stderr:\n%s", code, srv.stderr)
	}
	notInstalled(t, root)
	if _, err := os.Stat(filepath.Join(root, ".agentos", "specs")); err != nil {
		t.Errorf("the project's specs are gone: %v", err)
	}
}

// removeRunning removes path while the server writes into it (its log,
// its indexes): a folder that filled up while it was emptied is emptied
// again.
func removeRunning(t *testing.T, path string) {
	t.Helper()
	var err error
	for range 50 {
		if err = os.RemoveAll(path); err == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal(err)
}

// A server whose project is uninstalled under it (by hand, or by an
// uninstall that could not stop it) stops by itself, removes its state file
// and does not write .agentos/ again; nor does a bridge that would take
// over from it.
func TestServerStopsWhenItsProjectGoes(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"purge", "config"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			root := newProject(t)
			srv := startServe(t, root, "--transport", "dual")
			waitState(t, root, srv.cmd.Process.Pid)
			stdioClient(t, root) // bridged, standing by
			if !srv.logged("search index") {
				t.Fatalf("the indexes did not open; stderr:\n%s", srv.stderr)
			}
			remove := []string{""} // .agentos/ whole
			if how == "config" {   // what uninstall removes, specs kept
				remove = []string{".cache", "config", "standards/universal", "workflows", ".mcp_server_state.json"}
			}
			for _, rel := range remove {
				removeRunning(t, filepath.Join(root, ".agentos", filepath.FromSlash(rel)))
			}
			if code := srv.exitCode(t); code != 0 {
				t.Errorf("the server exited %d; stderr:\n%s", code, srv.stderr)
			}
			if !srv.logged("agentos was uninstalled from the project") {
				t.Errorf("the server did not say why it stopped; stderr:\n%s", srv.stderr)
			}
			notInstalled(t, root)
			if how == "purge" {
				if _, err := os.Stat(filepath.Join(root, ".agentos")); !os.IsNotExist(err) {
					t.Errorf(".agentos/ came back: %v", err)
				}
			}
		})
	}
}

// A server that does not stop (here: frozen with SIGSTOP, so SIGTERM waits)
// is named in a warning; --yes goes ahead, and the server, once it runs
// again, stops without writing .agentos/ again.
func TestUninstallWarnsWhenTheServerCannotBeStopped(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	srv := startServe(t, root, "--transport", "http")
	st := waitState(t, root, srv.cmd.Process.Pid)
	srv.signal(t, syscall.SIGSTOP)
	t.Cleanup(func() { srv.cmd.Process.Signal(syscall.SIGCONT) })

	r := runAgentos(t, root, "uninstall", "--yes", "--backup-dir", t.TempDir())
	if r.code != 0 {
		t.Fatalf("uninstall --yes: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"warning: the server running for this project could not be stopped", fmt.Sprintf("pid %d", st.PID), "did not stop within"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	srv.signal(t, syscall.SIGCONT)
	if code := srv.exitCode(t); code != 0 {
		t.Errorf("the server exited %d; stderr:\n%s", code, srv.stderr)
	}
	notInstalled(t, root)
}

// agentos's own probes end the sessions they open: after doctor, connect
// and search, get_server_info lists the agent only.
func TestProbesLeaveNoClients(t *testing.T) {
	t.Parallel()
	for _, auth := range []string{"user", "token"} {
		t.Run(auth, func(t *testing.T) {
			t.Parallel()
			root := newProject(t, "auth: "+auth)
			srv := startServe(t, root, "--transport", "dual")
			st := waitState(t, root, srv.cmd.Process.Pid)
			headers := map[string]string{}
			if auth == "token" {
				tok, err := os.ReadFile(filepath.Join(root, ".agentos", ".cache", "auth_token"))
				if err != nil {
					t.Fatal(err)
				}
				headers["Authorization"] = "Bearer " + strings.TrimSpace(string(tok))
			}
			agent := httpClient(t, st.URL, headers)

			doctor := runAgentos(t, root, "doctor")
			if !strings.Contains(doctor.stdout, "indexes") {
				t.Errorf("doctor did not ask the server for its indexes:\n%s%s", doctor.stdout, doctor.stderr)
			}
			if r := runAgentos(t, root, "connect", "--agent", "cursor"); r.code != 0 || !strings.Contains(r.stdout, "answers MCP") {
				t.Errorf("connect: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if r := runAgentos(t, root, "search", "error handling", "--verbose"); r.code != 0 || !strings.Contains(r.stderr, "answered") {
				t.Errorf("search did not ask the running server: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}

			si := getInfo(t, agent)
			var names []string
			for _, c := range si.Clients {
				names = append(names, c.Name)
			}
			if si.ConnectedClients != 1 || !slices.Equal(names, []string{"http-test"}) {
				t.Errorf("connected_clients = %d %v, want the agent only", si.ConnectedClients, names)
			}
		})
	}
}

// Uninstall leaves Codex's config (the user's, and the project's) ending as
// it did before install: with no line break, one, or two.
func TestUninstallKeepsCodexConfigEnding(t *testing.T) {
	t.Parallel()
	for name, end := range map[string]string{"none": "", "one": "\n", "two": "\n\n"} {
		for _, scope := range []string{"user", "project"} {
			t.Run(name+"/"+scope, func(t *testing.T) {
				t.Parallel()
				root, home := t.TempDir(), t.TempDir()
				env := []string{"HOME=" + home, "USERPROFILE=" + home, "CODEX_HOME=" + filepath.Join(home, ".codex"), "XDG_CONFIG_HOME="}
				path := filepath.Join(home, ".codex", "config.toml")
				if scope == "project" {
					path = filepath.Join(root, ".codex", "config.toml")
				}
				before := "model = \"o3\"\n\n[profiles.fast]\nmodel = \"o4-mini\"" + end
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
					t.Fatal(err)
				}
				if r := runEnv(t, root, env, "install", "--dir", root, "--agent", "codex", "--scope", scope, "--yes"); r.code != 0 {
					t.Fatalf("install: exit %d\n%s%s", r.code, r.stdout, r.stderr)
				}
				if data, _ := os.ReadFile(path); !strings.Contains(string(data), "[mcp_servers.agentos]") {
					t.Fatalf("install wrote no entry:\n%s", data)
				}
				if r := runEnv(t, root, env, "uninstall", "--yes", "--backup-dir", t.TempDir()); r.code != 0 {
					t.Fatalf("uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
				}
				if data, _ := os.ReadFile(path); string(data) != before {
					t.Errorf("after uninstall: %q, want %q", data, before)
				}
			})
		}
	}
}
