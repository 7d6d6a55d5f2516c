package searchtool

import (
	"encoding/json"
	"hash/fnv"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentos-dev/agentos/internal/config"
)

// fakeOllama answers /api/embed with deterministic 16-dimension vectors.
func fakeOllama(t *testing.T, calls *atomic.Int64) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		calls.Add(1)
		out := make([][]float32, len(req.Input))
		for i, text := range req.Input {
			v := make([]float32, 16)
			for _, w := range strings.Fields(strings.ToLower(text)) {
				h := fnv.New32a()
				h.Write([]byte(w))
				v[h.Sum32()%16]++
			}
			var n float64
			for _, x := range v {
				n += float64(x * x)
			}
			for j := range v {
				if n > 0 {
					v[j] /= float32(math.Sqrt(n))
				}
			}
			out[i] = v
		}
		json.NewEncoder(w).Encode(map[string]any{"embeddings": out})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestConfiguredEmbedderIsUsed(t *testing.T) {
	var calls atomic.Int64
	srv := fakeOllama(t, &calls)
	p := newProject(t)
	cfg := config.Default()
	cfg.Search.Embedder = config.Embedder{Provider: "ollama", Model: "test-embed", URL: srv.URL}
	e := startService(t, p, cfg)
	e.waitReady(t)
	for _, st := range e.svc.Status() {
		if st.State == StateReady && !strings.Contains(st.Embedder, "test-embed") {
			t.Errorf("%s index built with %q", st.Index, st.Embedder)
		}
	}
	if calls.Load() == 0 {
		t.Fatal("the configured embedder was never called")
	}
	if hits := e.searchCode(t, "cart total"); len(hits) == 0 {
		t.Error("no results with the configured embedder")
	}
}

func TestBrokenEmbedderIsReportedNotReplaced(t *testing.T) {
	p := newProject(t)
	cfg := config.Default()
	cfg.Search.Embedder = config.Embedder{Provider: "model2vec", Path: "no/such/model"}
	e := startService(t, p, cfg)
	e.waitReady(t)
	for _, st := range e.svc.Status() {
		if st.State != StateDisabled || !strings.Contains(st.Detail, "search.embedder") {
			t.Errorf("%s: %s %q", st.Index, st.State, st.Detail)
		}
	}
	if !strings.Contains(e.log.String(), "the configured embedder cannot be used") {
		t.Errorf("not logged:\n%s", e.log)
	}
}

func TestEmbedderDestinationIsLogged(t *testing.T) {
	cases := []struct {
		cfg        config.Embedder
		info, warn string // "" for warn: no warning
	}{
		{config.Embedder{}, "provider=builtin", ""},
		{config.Embedder{Provider: "ollama", Model: "nomic"}, "url=http://localhost:11434", ""},
		{config.Embedder{Provider: "ollama", Model: "nomic", URL: "http://[::1]:11434"}, "url=http://[::1]:11434", ""},
		{config.Embedder{Provider: "openai", Model: "m", APIKeyEnv: "OPENAI_API_KEY"}, "url=https://api.openai.com api_key_env=OPENAI_API_KEY",
			"to api.openai.com, which is not this machine, with the API key from $OPENAI_API_KEY"},
		{config.Embedder{Provider: "ollama", Model: "nomic", URL: "http://10.1.2.3:11434"}, "url=http://10.1.2.3:11434",
			"to 10.1.2.3:11434, which is not this machine, with no API key"},
		{config.Embedder{Provider: "openai", Model: "m", URL: "http://gpu-box.lan:8000/v1", APIKeyEnv: "LITELLM_API_KEY"}, "provider=openai",
			"with the API key from $LITELLM_API_KEY, unencrypted (http)"},
	}
	for _, c := range cases {
		var buf strings.Builder
		logEmbedder(slog.New(slog.NewTextHandler(&buf, nil)), c.cfg)
		out := buf.String()
		if !strings.Contains(out, "level=INFO msg=\"search embedder\"") || !strings.Contains(out, c.info) {
			t.Errorf("%+v: no INFO line with %q:\n%s", c.cfg, c.info, out)
		}
		switch {
		case c.warn == "" && strings.Contains(out, "level=WARN"):
			t.Errorf("%+v: a loopback embedder is warned about:\n%s", c.cfg, out)
		case c.warn != "" && (!strings.Contains(out, "level=WARN") || !strings.Contains(out, c.warn) || !strings.Contains(out, "every search query and the text of every indexed chunk")):
			t.Errorf("%+v: no warning saying %q:\n%s", c.cfg, c.warn, out)
		}
	}
}
