package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// agentProc is an agent's stdio connection: the MCP client and the
// `agentos serve --transport dual` process it launched, as an IDE does.
type agentProc struct {
	c   *client.Client
	cmd *exec.Cmd
}

func (a agentProc) pid() int { return a.cmd.Process.Pid }

// launchAgent starts `serve --transport dual` for root as an IDE does and
// initializes as name.
func launchAgent(t testing.TB, root, name string) agentProc {
	t.Helper()
	var cmd *exec.Cmd
	var mu sync.Mutex
	c, err := client.NewStdioMCPClientWithOptions(binary, []string{"PROJECT_ROOT=" + root},
		[]string{"serve", "--transport", "dual", "--log-level", "DEBUG"},
		transport.WithCommandFunc(func(ctx context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
			mu.Lock()
			defer mu.Unlock()
			cmd = exec.CommandContext(ctx, command, args...)
			cmd.Env = append(os.Environ(), env...)
			cmd.Dir = root
			return cmd, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	initialize(t, c, name, legacyProtocol)
	mu.Lock()
	defer mu.Unlock()
	return agentProc{c: c, cmd: cmd}
}

// withRecordedPort records server.port in root's config: the first port of
// the project's range, as install would have chosen.
func withRecordedPort(t testing.TB, root string) int {
	t.Helper()
	path := filepath.Join(root, ".agentos", "config", "mcp.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`port_range: "(\d+)-`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("no port_range in %s", data)
	}
	port, _ := strconv.Atoi(string(m[1]))
	if err := os.WriteFile(path, append(data, fmt.Sprintf("  port: %d\n", port)...), 0o644); err != nil {
		t.Fatal(err)
	}
	return port
}

// instanceOf asks c which server instance answers it, within a generous
// deadline: a call made while the primary is being replaced waits for the
// next one.
func instanceOf(t testing.TB, c *client.Client) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	si, err := serverInfoOf(ctx, c)
	if err != nil {
		t.Fatalf("get_server_info: %v", err)
	}
	return si.Server.InstanceID, si.Server.PID
}

// Three agents each launch `serve --transport dual` (three primaries, as
// three IDE windows would) and two more connect over HTTP: all five reach
// one server. When its process is killed, one of the others takes over on
// the same port, every agent still answers (the killed one's IDE would
// relaunch it), a workflow session started before is still there, and the
// HTTP client that started one still owns it.
func TestEveryAgentCanBeAPrimary(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	port := withRecordedPort(t, root)

	var agents []agentProc
	for i := range 3 {
		agents = append(agents, launchAgent(t, root, fmt.Sprintf("ide-%d", i)))
	}
	st := waitState(t, root, 0)
	if st.Port != port {
		t.Fatalf("the server listens on %d, not the recorded port %d", st.Port, port)
	}
	https := []*client.Client{httpClient(t, st.URL, nil), httpClient(t, st.URL, nil)}
	all := func(live []agentProc) []*client.Client {
		var cs []*client.Client
		for _, a := range live {
			cs = append(cs, a.c)
		}
		return append(cs, https...)
	}

	first, firstPID := instanceOf(t, agents[0].c)
	for i, c := range all(agents) {
		if id, _ := instanceOf(t, c); id != first {
			t.Fatalf("client %d reaches instance %s, client 0 reaches %s", i, id, first)
		}
	}
	primary := slices.IndexFunc(agents, func(a agentProc) bool { return a.pid() == firstPID })
	if primary < 0 {
		t.Fatalf("the server (pid %d) is none of the agents' processes", firstPID)
	}
	session := mustWF(t, agents[0].c, map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": "failover"}}).Session.ID
	// An HTTP client names itself only at initialize, as opencode does; it
	// keeps its session id across the failover and still owns this one.
	httpSession := mustWF(t, https[0], map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": "failover-http"}}).Session.ID

	if err := agents[primary].cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	live := slices.Delete(slices.Clone(agents), primary, primary+1)
	second, secondPID := instanceOf(t, live[0].c)
	if second == first || secondPID == firstPID {
		t.Fatalf("still instance %s (pid %d) after its process was killed", second, secondPID)
	}
	if !slices.ContainsFunc(live, func(a agentProc) bool { return a.pid() == secondPID }) {
		t.Errorf("the new primary (pid %d) is not one of the agents' processes", secondPID)
	}
	for i, c := range all(live) {
		if id, _ := instanceOf(t, c); id != second {
			t.Errorf("after the kill client %d reaches instance %s, not the new primary %s", i, id, second)
		}
	}
	if st2 := waitState(t, root, secondPID); st2.Port != port {
		t.Errorf("the new primary listens on %d, not the recorded port %d", st2.Port, port)
	}
	if out, errText := wf(t, https[0], map[string]any{"action": "get_state", "session_id": session}); errText != "" || out.Session.ID != session {
		t.Errorf("workflow session %s started before the kill is gone: %s", session, errText)
	}
	if _, errText := wf(t, https[0], map[string]any{"action": "pause", "session_id": httpSession}); errText != "" {
		t.Errorf("after the kill the HTTP client that started workflow session %s may not change it: %s", httpSession, errText)
	}
	// The killed agent's IDE relaunches it: it joins the new primary.
	again := launchAgent(t, root, "ide-relaunched")
	if id, _ := instanceOf(t, again.c); id != second {
		t.Errorf("the relaunched agent reaches %s, not %s", id, second)
	}
}

// A primary whose agent closes its stdin exits cleanly, and a bridge takes
// over as it would after a crash.
func TestPrimaryCleanExitHandsOver(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	withRecordedPort(t, root)
	a := launchAgent(t, root, "first")
	b := launchAgent(t, root, "second")
	idA, pidA := instanceOf(t, a.c)
	if pidA != a.pid() {
		t.Fatalf("the first agent's process (pid %d) is not the primary (pid %d)", a.pid(), pidA)
	}
	// Close closes the server's stdin and waits for it to exit (killing it
	// after a grace period).
	if err := a.c.Close(); err != nil || !a.cmd.ProcessState.Success() {
		t.Errorf("the primary did not exit cleanly: %v, %v", err, a.cmd.ProcessState)
	}
	idB, pidB := instanceOf(t, b.c)
	if idB == idA || pidB != b.pid() {
		t.Errorf("after the clean exit the second agent reaches %s (pid %d); want its own process %d", idB, pidB, b.pid())
	}
}

// serverInfoOf calls get_server_info, returning an error rather than
// failing the test, for a benchmark's loop.
func serverInfoOf(ctx context.Context, c *client.Client) (serverInfo, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = "get_server_info"
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return serverInfo{}, err
	}
	if res.IsError {
		return serverInfo{}, fmt.Errorf("get_server_info: %v", res.Content)
	}
	var si serverInfo
	data, _ := json.Marshal(res.StructuredContent)
	return si, json.Unmarshal(data, &si)
}

// BenchmarkFailover measures the time from the end of the primary to the
// first answer, through another agent's bridge, from the server that took
// over: kill, SIGKILL of its process; exit, its IDE closing its stdin (a
// clean shutdown, which saves the indexes first). Each iteration relaunches
// the agent whose process ended.
//
//	go test ./e2e -run '^$' -bench Failover -benchtime 20x -count 3
func BenchmarkFailover(b *testing.B) {
	end := map[string]func(agentProc){
		"kill": func(a agentProc) { a.cmd.Process.Signal(syscall.SIGKILL) },
		"exit": func(a agentProc) { go a.c.Close() }, // Close waits for the exit
	}
	for _, how := range []string{"kill", "exit"} {
		b.Run(how, func(b *testing.B) { benchmarkFailover(b, end[how]) })
	}
}

func benchmarkFailover(b *testing.B, end func(agentProc)) {
	root := newProject(b)
	withRecordedPort(b, root)
	agents := []agentProc{launchAgent(b, root, "ide-0"), launchAgent(b, root, "ide-1"), launchAgent(b, root, "ide-2")}
	var took []time.Duration
	for i := 0; b.Loop(); i++ {
		_, pid := instanceOf(b, agents[0].c)
		k := slices.IndexFunc(agents, func(a agentProc) bool { return a.pid() == pid })
		if k < 0 {
			b.Fatalf("the server (pid %d) is none of the agents' processes", pid)
		}
		asker := agents[(k+1)%len(agents)]
		start := time.Now()
		end(agents[k])
		for {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			si, err := serverInfoOf(ctx, asker.c)
			cancel()
			if err != nil {
				b.Fatalf("after the primary ended: %v", err)
			}
			if si.Server.PID != pid {
				break
			}
		}
		took = append(took, time.Since(start))
		b.StopTimer()
		agents[k].c.Close()
		agents[k] = launchAgent(b, root, fmt.Sprintf("ide-relaunched-%d", i))
		b.StartTimer()
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Milliseconds()), "median-ms")
	b.ReportMetric(float64(took[len(took)-1].Milliseconds()), "max-ms")
}

// connected_clients counts live sessions: an agent whose bridge exits (its
// IDE closed stdin) or is killed is dropped.
func TestConnectedClientsCountsLiveAgents(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	primary := startServe(t, root, "--transport", "dual")
	st := waitState(t, root, primary.cmd.Process.Pid)
	watcher := httpClient(t, st.URL, nil)
	leaves, killed := launchAgent(t, root, "leaves"), launchAgent(t, root, "killed")
	names := func() []string {
		var ns []string
		for _, c := range getInfo(t, watcher).Clients {
			ns = append(ns, c.Name)
		}
		slices.Sort(ns)
		return ns
	}
	waitNames := func(want ...string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !slices.Equal(names(), want) {
			if time.Now().After(deadline) {
				t.Fatalf("clients %v, want %v", names(), want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	waitNames("http-test", "killed", "leaves")
	leaves.c.Close() // stdin closes: the bridge ends its session
	waitNames("http-test", "killed")
	killed.cmd.Process.Signal(syscall.SIGKILL)
	waitNames("http-test")
}

// The server takes the recorded server.port when it is free; when another
// program holds it, the next free port, saying why; with none recorded, the
// first free port, with a note on how to record one.
func TestRecordedPort(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	lo, hi := portRange(t, 8)
	recorded := lo + 3
	writeConfig(t, root, fmt.Sprintf("server:\n  port_range: \"%d-%d\"\n  port: %d\n", lo, hi, recorded))

	p := startServe(t, root, "--transport", "http")
	if st := waitState(t, root, p.cmd.Process.Pid); st.Port != recorded {
		t.Errorf("free recorded port: the server listens on %d, not %d", st.Port, recorded)
	}
	p.stdin.Close()
	p.signal(t, syscall.SIGTERM)
	p.exitCode(t)

	occupy(t, recorded)
	p = startServe(t, root, "--transport", "http")
	if st := waitState(t, root, p.cmd.Process.Pid); st.Port != recorded+1 {
		t.Errorf("recorded port held by another program: the server listens on %d, not the next one %d", st.Port, recorded+1)
	}
	if !p.logged("server.port is held by another program") || !p.logged(fmt.Sprintf("recorded=%d", recorded)) {
		t.Errorf("the server does not say why it left the recorded port:\n%s", p.stderr)
	}
	p.signal(t, syscall.SIGTERM)
	p.exitCode(t)

	writeConfig(t, root, fmt.Sprintf("server:\n  port_range: \"%d-%d\"\n", lo, hi))
	p = startServe(t, root, "--transport", "http")
	if st := waitState(t, root, p.cmd.Process.Pid); st.Port != lo {
		t.Errorf("no recorded port: the server listens on %d, not the first free %d", st.Port, lo)
	}
	if !p.logged("no server.port is recorded") || !p.logged("agentos upgrade") {
		t.Errorf("no note on recording a port:\n%s", p.stderr)
	}
}

// Requests on their way while the primary shuts down are answered: by it,
// or, when it ended before answering, by the server that took over.
func TestRequestsInFlightDuringAHandover(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	withRecordedPort(t, root)
	agents := []agentProc{launchAgent(t, root, "ide-0"), launchAgent(t, root, "ide-1"), launchAgent(t, root, "ide-2")}
	for round := range 4 {
		_, pid := instanceOf(t, agents[0].c)
		k := slices.IndexFunc(agents, func(a agentProc) bool { return a.pid() == pid })
		if k < 0 {
			t.Fatalf("the server (pid %d) is none of the agents' processes", pid)
		}
		var wg sync.WaitGroup
		for _, a := range agents {
			if a.pid() == pid {
				continue
			}
			for range 4 {
				wg.Go(func() {
					ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
					defer cancel()
					if _, err := serverInfoOf(ctx, a.c); err != nil {
						t.Errorf("round %d: a call on its way during the handover: %v", round, err)
					}
				})
			}
		}
		agents[k].c.Close() // its IDE closes stdin; Close waits for the exit
		wg.Wait()
		agents[k] = launchAgent(t, root, fmt.Sprintf("ide-relaunched-%d", round))
	}
}

// The server never listens on a port browsers refuse, since the review page
// must open there: with 10080 first in its range it takes the next one, and
// a server.port of 5060 is refused as a configuration error.
func TestServerSkipsPortsBrowsersRefuse(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	writeConfig(t, root, "server:\n  port: 5060\n")
	if r := runAgentos(t, root, "serve", "--project-root", root, "--transport", "http"); r.code != 3 || !strings.Contains(r.stderr, "browsers refuse") {
		t.Errorf("server.port 5060: exit %d\n%s", r.code, r.stderr)
	}
	if !portsFree(10081, 10081) {
		t.Skip("10081 is held by another program")
	}
	writeConfig(t, root, "server:\n  port_range: \"10080-10081\"\n")
	p := startServe(t, root, "--transport", "http")
	if st := waitState(t, root, p.cmd.Process.Pid); st.Port != 10081 {
		t.Errorf("range 10080-10081: the server listens on %d, want 10081", st.Port)
	}
	p.signal(t, syscall.SIGTERM)
	p.exitCode(t)
}
