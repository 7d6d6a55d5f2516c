// Command standin is a stand-in model endpoint for scripts/real-clients.sh. It
// lets a real client CLI run one turn against agentos without an account: it
// speaks the two model APIs the checked clients use, Gemini's generateContent
// (Gemini CLI, via GOOGLE_GEMINI_BASE_URL) and OpenAI's chat completions
// (opencode, via an OpenAI-compatible provider), each streamed or not.
//
// Each request is answered from its last message alone:
//
//   - the last message carries a tool result: the result is appended, as one
//     JSON line {"api":..., "result":...}, to DIR/API.jsonl (DIR is -record,
//     API is gemini or openai), and the reply is the text "done";
//   - the request declares the tool named by -tool (as declared, or with a
//     client's prefix such as "mcp_agentos_" or "agentos_"): the reply is one
//     call of that tool with the arguments -args;
//   - otherwise (a title, a routing question): the reply is the text "done".
//
// Each line on stdin, "TOOL ARGS" (ARGS a JSON object), makes that the
// call of the requests that come after it, so a script can play several
// turns against one client.
//
// It listens on 127.0.0.1 only, on a free port, prints its base URL
// (http://127.0.0.1:PORT) on stdout, and runs until it is killed or its stdin
// is closed. Every request is logged on stderr.
//
//	standin -tool svc_filesystem -args '{"action":"read","path":"../outside.txt"}' -record DIR
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

var (
	tool   = flag.String("tool", "svc_filesystem", "name of the tool to call")
	args   = flag.String("args", `{"action":"read","path":"../outside.txt"}`, "arguments of the call, a JSON object")
	record = flag.String("record", ".", "folder the tool results are appended to, as API.jsonl")
	mu     sync.Mutex // guards the call (tool, args) and the record files
)

func main() {
	flag.Parse()
	log.SetPrefix("standin: ")
	if err := setCall(*tool, *args); err != nil {
		log.Fatalf("-args: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("http://%s\n", ln.Addr())
	go func() { // the caller closes stdin, or ends, when it is done
		lines := bufio.NewScanner(os.Stdin)
		for lines.Scan() {
			name, arguments, _ := strings.Cut(strings.TrimSpace(lines.Text()), " ")
			if err := setCall(name, arguments); err != nil {
				log.Printf("stdin: %q: %v", lines.Text(), err)
			}
		}
		os.Exit(0)
	}()
	log.Fatal(http.Serve(ln, http.HandlerFunc(serve)))
}

func serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	switch p := r.URL.Path; {
	case r.Method == http.MethodPost && strings.Contains(p, ":generateContent"):
		gemini(w, body, false)
	case r.Method == http.MethodPost && strings.Contains(p, ":streamGenerateContent"):
		gemini(w, body, true)
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/chat/completions"):
		openai(w, body)
	default:
		log.Printf("%s %s: not a model request, 404", r.Method, p)
		http.NotFound(w, r)
	}
}

// setCall makes name with arguments the call to answer with.
func setCall(name, arguments string) error {
	var a map[string]any
	if err := json.Unmarshal([]byte(arguments), &a); err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	*tool, *args = name, arguments
	log.Printf("the call is now %s %s", name, arguments)
	return nil
}

// toolName returns the name under which the request declares the tool to
// call, or "", and the call's arguments.
func toolName(names []string) (string, string) {
	mu.Lock()
	defer mu.Unlock()
	for _, n := range names {
		if n == *tool || strings.HasSuffix(n, "_"+*tool) {
			return n, *args
		}
	}
	return "", ""
}

// save appends a tool result to DIR/API.jsonl.
func save(api string, result json.RawMessage) {
	mu.Lock()
	defer mu.Unlock()
	line, _ := json.Marshal(map[string]any{"api": api, "result": result})
	f, err := os.OpenFile(filepath.Join(*record, api+".jsonl"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		log.Print(err)
		return
	}
	defer f.Close()
	_, _ = f.Write(append(line, '\n'))
}

// sse writes events as server-sent events, each a data line.
func sse(w http.ResponseWriter, events ...any) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	for _, e := range events {
		if s, ok := e.(string); ok {
			fmt.Fprintf(w, "data: %s\n\n", s)
			continue
		}
		b, _ := json.Marshal(e)
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// gemini answers a generateContent or streamGenerateContent request.
func gemini(w http.ResponseWriter, body []byte, stream bool) {
	var req struct {
		Contents []struct {
			Parts []struct {
				FunctionResponse json.RawMessage `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
		Tools []struct {
			FunctionDeclarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		log.Printf("gemini: %v", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var names []string
	for _, t := range req.Tools {
		for _, d := range t.FunctionDeclarations {
			names = append(names, d.Name)
		}
	}
	part := map[string]any{"text": "done"}
	if n := len(req.Contents); n > 0 {
		for _, p := range req.Contents[n-1].Parts {
			if p.FunctionResponse != nil {
				log.Printf("gemini: tool result %s", p.FunctionResponse)
				save("gemini", p.FunctionResponse)
				part = nil
			}
		}
		if part == nil {
			part = map[string]any{"text": "done"}
		} else if name, arguments := toolName(names); name != "" {
			log.Printf("gemini: calling %s", name)
			part = map[string]any{"functionCall": map[string]any{"name": name, "args": json.RawMessage(arguments)}}
		} else {
			log.Printf("gemini: request without the tool to call among %d tools, text", len(names))
		}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"index":        0,
			"content":      map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP",
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
	}
	if stream {
		sse(w, resp)
	} else {
		writeJSON(w, resp)
	}
}

// openai answers a chat completions request.
func openai(w http.ResponseWriter, body []byte) {
	var req struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		log.Printf("openai: %v", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var names []string
	for _, t := range req.Tools {
		names = append(names, t.Function.Name)
	}
	msg := map[string]any{"role": "assistant", "content": "done"}
	finish := "stop"
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == "tool" {
		log.Printf("openai: tool result %s", req.Messages[n-1].Content)
		save("openai", req.Messages[n-1].Content)
	} else if name, arguments := toolName(names); name != "" {
		log.Printf("openai: calling %s", name)
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"index": 0, "id": "call_standin_1", "type": "function",
			"function": map[string]any{"name": name, "arguments": arguments},
		}}}
		finish = "tool_calls"
	} else {
		log.Printf("openai: request without the tool to call among %d tools, text", len(names))
	}
	usage := map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
	if !req.Stream {
		writeJSON(w, map[string]any{
			"id": "chatcmpl-standin", "object": "chat.completion", "created": 0, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   usage,
		})
		return
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": "chatcmpl-standin", "object": "chat.completion.chunk", "created": 0, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}
	}
	last := chunk(map[string]any{}, finish)
	last["usage"] = usage
	sse(w, chunk(msg, nil), last, "[DONE]")
}
