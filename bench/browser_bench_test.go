package bench

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/server/browser"
)

const benchPage = `<!doctype html><html><head><title>Bench</title></head><body>
<h1 id="t">0</h1><button id="b" onclick="t.textContent = +t.textContent + 1">+</button>
<input id="i"><ul>` + `<li class="x">item</li><li class="x">item</li><li class="x">item</li>` + `</ul></body></html>`

// browserServe starts an HTTP server for a project and a local page.
func browserServe(b *testing.B) (mcpURL, pageURL string) {
	b.Helper()
	if _, err := browser.FindExecutable(""); err != nil {
		b.Skipf("SKIPPING BROWSER BENCHMARK: %v", err)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, benchPage)
	}))
	b.Cleanup(ts.Close)
	root := project(b)
	cmd := exec.Command(binary, "serve", "--transport", "http", "--project-root", root, "--log-level", "ERROR")
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		// SIGINT, not SIGKILL: the server then closes its browsers and removes their profiles.
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	return waitURL(b, root), ts.URL + "/"
}

func browserCall(id int, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"svc_browser","arguments":%s}}`, id, args)
}

// browserRPC is rpc that fails on a tool error too.
func browserRPC(b *testing.B, c *http.Client, url, session, proto, msg string) {
	b.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(msg))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", proto)
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	var body strings.Builder
	buf := make([]byte, 64<<10)
	for {
		n, err := resp.Body.Read(buf)
		body.Write(buf[:n])
		if err != nil {
			break
		}
	}
	resp.Body.Close()
	if strings.Contains(body.String(), `"isError":true`) {
		b.Fatalf("%s: %s", msg, body.String())
	}
}

// BenchmarkBrowserFirstAction: a new client's first navigate, which starts
// its browser, then close.
func BenchmarkBrowserFirstAction(b *testing.B) {
	url, page := browserServe(b)
	c := &http.Client{}
	var lat []time.Duration
	for b.Loop() {
		session, proto := rpc(b, c, url, "", "", initMsg)
		rpc(b, c, url, session, proto, initialized)
		t := time.Now()
		browserRPC(b, c, url, session, proto, browserCall(10, `{"action":"navigate","url":"`+page+`"}`))
		lat = append(lat, time.Since(t))
		browserRPC(b, c, url, session, proto, browserCall(11, `{"action":"close"}`))
	}
	report(b, lat)
}

// BenchmarkBrowserAction: p50 and p99 of each action on a started browser
// and a loaded local page.
func BenchmarkBrowserAction(b *testing.B) {
	url, page := browserServe(b)
	c := &http.Client{}
	session, proto := rpc(b, c, url, "", "", initMsg)
	rpc(b, c, url, session, proto, initialized)
	browserRPC(b, c, url, session, proto, browserCall(2, `{"action":"navigate","url":"`+page+`"}`))
	for _, a := range []struct{ name, args string }{
		{"navigate", `{"action":"navigate","url":"` + page + `"}`},
		{"query", `{"action":"query","selector":"li.x"}`},
		{"click", `{"action":"click","selector":"#b"}`},
		{"fill", `{"action":"fill","selector":"#i","value":"hello"}`},
		{"type", `{"action":"type","selector":"#i","text":"ab"}`},
		{"evaluate", `{"action":"evaluate","script":"document.title"}`},
		{"console", `{"action":"console"}`},
		{"screenshot", `{"action":"screenshot"}`},
	} {
		b.Run(a.name, func(b *testing.B) {
			var lat []time.Duration
			for b.Loop() {
				t := time.Now()
				browserRPC(b, c, url, session, proto, browserCall(3, a.args))
				lat = append(lat, time.Since(t))
			}
			report(b, lat)
		})
	}
}

func report(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
