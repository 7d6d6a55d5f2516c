package sandbox

// What every system's sandbox shares: the environment a command gets, the
// paths it may not read, and the person's Go caches.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// initEnv carries the sandbox's plan from agentos to the copy of itself that
// becomes the sandbox's first process. Init removes it before the command
// runs.
const initEnv = "AGENTOS_SANDBOX_INIT"

// initExitCode is the status of a sandbox that could not be set up, so that
// it is not read as the command's own failure.
const initExitCode = 125

// cache is one of the person's caches the command reads through a
// throwaway layer, at Mount (inside the private folder); Lower may not exist.
type cache struct {
	Env   string `json:"env"`
	Lower string `json:"lower"`
	Mount string `json:"mount"`
}

// childEnv is env less the variables that hold secrets by their name (API
// keys, tokens, passwords) and the sockets of agents outside (SSH, D-Bus):
// a test's output reaches the agent, so nothing it can print may be a secret.
func childEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		u := strings.ToUpper(name)
		switch {
		case name == initEnv, strings.HasPrefix(u, "AGENTOS_"):
		case strings.Contains(u, "TOKEN"), strings.Contains(u, "SECRET"), strings.Contains(u, "PASSW"),
			strings.Contains(u, "CREDENTIAL"), strings.Contains(u, "KEY"), strings.Contains(u, "AUTH"),
			strings.Contains(u, "COOKIE"), strings.Contains(u, "SESSION"): // SESSION: D-Bus's too
		default:
			out = append(out, kv)
		}
	}
	return out
}

// credentialPaths are the files and folders under the home folder where
// tools keep credentials, and those of agentos and the coding agents.
var credentialPaths = []string{
	".ssh", ".aws", ".azure", ".config/gcloud", ".netrc", ".docker", ".kube", ".gnupg", ".password-store",
	".npmrc", ".yarnrc", ".yarnrc.yml", ".pypirc", ".git-credentials", ".config/git/credentials", ".config/gh",
	".config/hub", ".config/glab-cli", ".cargo/credentials", ".cargo/credentials.toml", ".m2/settings.xml",
	".gradle/gradle.properties", ".terraform.d", ".vault-token", ".config/op", ".local/share/keyrings",
	".config/agentos", ".claude", ".claude.json", ".codex", ".gemini", ".qwen", ".config/opencode",
	".local/share/opencode", ".copilot", ".config/github-copilot", ".cursor", ".config/Code", ".vscode-server",
}

// secretPaths lists what the command may not read: the credential paths,
// agentos's configuration folder wherever it is set, and the folders of
// running services' sockets and the like, which differ by system
// (systemSecrets).
func secretPaths() []string {
	var out []string
	home, err := os.UserHomeDir()
	if err == nil {
		for _, p := range credentialPaths {
			out = append(out, filepath.Join(home, filepath.FromSlash(p)))
		}
	}
	if dir, err := os.UserConfigDir(); err == nil {
		out = append(out, filepath.Join(dir, "agentos"))
	}
	if dir := os.Getenv("AGENTOS_CONFIG_HOME"); dir != "" {
		out = append(out, dir)
	}
	return append(out, systemSecrets(home)...)
}

// personCaches are the person's Go caches, which a run may read but never
// write: its builds use a throwaway layer over each, so a poisoned entry
// never reaches the person's own builds. Asked of go once per process.
var personCaches = func() func(ctx context.Context) []cache {
	var once sync.Once
	var found []cache
	return func(ctx context.Context) []cache {
		once.Do(func() {
			out, err := exec.CommandContext(ctx, "go", "env", "GOCACHE", "GOMODCACHE").Output()
			if err != nil {
				return
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			for i, name := range []string{"GOCACHE", "GOMODCACHE"} {
				if i >= len(lines) {
					break
				}
				if dir := strings.TrimSpace(lines[i]); filepath.IsAbs(dir) {
					found = append(found, cache{Env: name, Lower: dir})
				}
			}
		})
		return found
	}
}()
