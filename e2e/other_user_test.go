package e2e

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// asClientEnv makes the e2e test binary, instead of running tests, post to
// the URL it holds what an MCP client posts first and then a file write,
// and print each answer's status: the client a test runs as another OS user.
const asClientEnv = "AGENTOS_E2E_POST_AS_CLIENT"

func postAsClient(url string) int {
	write := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"svc_filesystem","arguments":{"action":"write","path":"planted.txt","content":"from another user\n"}}}`
	session := ""
	for _, body := range []string{initBody, write} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println("error", err)
			return 1
		}
		text, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		session = resp.Header.Get("Mcp-Session-Id")
		fmt.Printf("status %d %s\n", resp.StatusCode, bytes.TrimSpace(text))
	}
	return 0
}
