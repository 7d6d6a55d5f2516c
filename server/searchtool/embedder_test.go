package searchtool

import (
	"encoding/json"
	"hash/fnv"
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
