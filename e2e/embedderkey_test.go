package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// search.embedder.api_key_env names the variable whose value goes to the
// embedder as a bearer token: one that does not look like an API key, or is
// another service's credential, stops the server and fails doctor's config
// check, with the rule.
func TestEmbedderKeyVariableMustBeAnAPIKey(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	home := t.TempDir()
	for name, want := range map[string]string{
		"PATH":         `search.embedder.api_key_env is "PATH", which does not look like an API key variable`,
		"HOME":         `search.embedder.api_key_env is "HOME", which does not look like an API key variable`,
		"GITHUB_TOKEN": "names GITHUB_TOKEN, a well-known credential of another service, not an embedding key",
	} {
		writeConfig(t, root, "search:\n  embedder:\n    provider: openai\n    model: m\n    url: http://127.0.0.1:1/v1\n    api_key_env: "+name+"\n")
		r := runAgentos(t, root, "serve", "--transport", "http", "--project-root", root)
		if r.code != 3 || !strings.Contains(r.stderr, want) {
			t.Errorf("serve with api_key_env %s: exit %d\n%s", name, r.code, r.stderr)
		}
		if name != "GITHUB_TOKEN" && !strings.Contains(r.stderr, "ending in _API_KEY, _KEY or _TOKEN") {
			t.Errorf("serve with api_key_env %s does not state the rule:\n%s", name, r.stderr)
		}
		r = runIn(t, root, home, "doctor")
		if r.code != 1 || !strings.Contains(r.stdout, "✗ config: ") || !strings.Contains(r.stdout, want) {
			t.Errorf("doctor with api_key_env %s: exit %d\n%s", name, r.code, r.stdout)
		}
	}
}

// An embedder on another machine is named at start with a warning that says
// what goes there and with which key. HTTP_PROXY sends the embedder's
// requests to a recorder on 127.0.0.1, so nothing leaves this machine, and
// the recorder shows the warning tells the truth.
func TestEmbedderOnAnotherMachineIsWarned(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	proxy := listenRecorder(t, 0)
	lo, hi := portRange(t, 4)
	writeConfig(t, root, fmt.Sprintf("server:\n  port_range: \"%d-%d\"\nsearch:\n  embedder:\n    provider: ollama\n    model: nomic-embed-text\n"+
		"    url: http://embedder.example:11434\n    api_key_env: AGENTOS_E2E_EMBED_API_KEY\n", lo, hi))

	serve := func() (*exec.Cmd, *syncBuffer) {
		cmd := exec.Command(binary, "serve", "--transport", "http", "--project-root", root)
		cmd.Env = append(os.Environ(), fmt.Sprintf("HTTP_PROXY=http://127.0.0.1:%d", proxy.port), "http_proxy=", "NO_PROXY=", "no_proxy=",
			"AGENTOS_E2E_EMBED_API_KEY=sk-e2e")
		stderr := &syncBuffer{}
		cmd.Stderr = stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd, stderr
	}

	// As a cloned repository brings it: not trusted, so the server embeds
	// locally, says why, and sends nothing and no key anywhere.
	cmd, stderr := serve()
	st := waitState(t, root, cmd.Process.Pid)
	c := httpClient(t, st.URL, nil)
	var found struct{ Results []any }
	call(t, c, "svc_search_project", map[string]any{"query": "greeting", "scope": "code"}, &found)
	if logs := stderr.String(); !strings.Contains(logs, "search.embedder.provider, search.embedder.url, search.embedder.api_key_env, search.embedder.model in .agentos/config/mcp.yaml are not trusted on this machine") {
		t.Errorf("the server does not say the embedder waits for trust:\n%s", logs)
	}
	if reqs := proxy.requests(); len(reqs) != 0 {
		t.Fatalf("an untrusted embedder was sent requests: %q", reqs)
	}
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	waitGone(t, statePath(root))

	// The person trusts it: now it is used, and the warning names the host.
	runOK(t, root, "trust", "--yes")
	_, stderr = serve()

	const warning = "search.embedder sends every search query and the text of every indexed chunk of code and standards to embedder.example:11434, which is not this machine, with the API key from $AGENTOS_E2E_EMBED_API_KEY, unencrypted (http)"
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && !(strings.Contains(stderr.String(), warning) && len(proxy.requests()) > 0) {
		time.Sleep(20 * time.Millisecond)
	}
	logs := stderr.String()
	if !strings.Contains(logs, "WARN") || !strings.Contains(logs, warning) {
		t.Fatalf("no warning naming the host:\n%s", logs)
	}
	if !strings.Contains(logs, "search embedder") || !strings.Contains(logs, "url=http://embedder.example:11434") {
		t.Errorf("the embedder is not named at INFO:\n%s", logs)
	}
	reqs := proxy.requests()
	if len(reqs) == 0 || !strings.HasPrefix(reqs[0], "POST http://embedder.example:11434/api/embed auth=Bearer sk-e2e") {
		t.Errorf("the embedder's requests: %q", reqs)
	}
}
