package embed

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/search/embed/model2vec/m2vtest"
)

func writeTinyModel(t *testing.T, dir string, normalize bool) {
	t.Helper()
	vocab := []string{"[PAD]", "[UNK]", "read", "file"}
	rows := [][]float32{{0, 0}, {0, 0}, {3, 0}, {0, 4}}
	if err := m2vtest.Write(dir, m2vtest.WordPiece(vocab),
		map[string]m2vtest.Tensor{"embeddings": m2vtest.Matrix("F32", rows)}, normalize); err != nil {
		t.Fatal(err)
	}
}

func TestFromConfigBuiltin(t *testing.T) {
	for _, p := range []string{"", "builtin", " Builtin "} {
		e, err := FromConfig(EmbedderConfig{Provider: p})
		if err != nil || e.Name() != NewHashing(0).Name() || e.Dim() != DefaultDim {
			t.Errorf("%q: %v %v", p, e, err)
		}
	}
	if e, err := FromConfig(EmbedderConfig{Dim: 64}); err != nil || e.Dim() != 64 {
		t.Errorf("dim: %v %v", e, err)
	}
	if err := Prepare(context.Background(), NewHashing(0)); err != nil {
		t.Error(err)
	}
}

func TestFromConfigModel2Vec(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tiny")
	writeTinyModel(t, dir, false)
	e, err := FromConfig(EmbedderConfig{Provider: "model2vec", Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	if e.Dim() != 2 || !strings.HasPrefix(e.Name(), "model2vec:tiny@") {
		t.Fatalf("%s/%d", e.Name(), e.Dim())
	}
	// config.json says not to normalise; the index needs unit vectors.
	v, err := Query(context.Background(), e, "read file")
	if err != nil || math.Abs(float64(v[0])-0.6) > 1e-6 || math.Abs(float64(v[1])-0.8) > 1e-6 {
		t.Errorf("vector %v %v", v, err)
	}
	if _, err := FromConfig(EmbedderConfig{Provider: "model2vec", Path: dir, Dim: 256}); err == nil ||
		!strings.Contains(err.Error(), "has 2 dimensions, the configuration says 256") {
		t.Errorf("dim mismatch: %v", err)
	}

	// By name, from the models folder.
	root := t.TempDir()
	t.Setenv("AGENTOS_MODELS_DIR", root)
	writeTinyModel(t, filepath.Join(root, "minishlab", "potion-tiny"), true)
	e, err = FromConfig(EmbedderConfig{Provider: "model2vec", Model: "minishlab/potion-tiny"})
	if err != nil || e.Dim() != 2 {
		t.Fatalf("by name: %v", err)
	}
	_, err = FromConfig(EmbedderConfig{Provider: "model2vec", Model: "minishlab/potion-base-8M"})
	if err == nil || !strings.Contains(err.Error(), "is not downloaded") || !strings.Contains(err.Error(), "agentos models pull minishlab/potion-base-8M") {
		t.Errorf("not pulled: %v", err)
	}
	if _, err = FromConfig(EmbedderConfig{Provider: "model2vec"}); err == nil || !strings.Contains(err.Error(), "give a path") {
		t.Errorf("nothing given: %v", err)
	}
	if _, err = FromConfig(EmbedderConfig{Provider: "model2vec", Path: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "model.safetensors") {
		t.Errorf("empty directory: %v", err)
	}
}

func TestFromConfigHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		vs := make([][]float32, len(req.Input))
		for i := range vs {
			vs[i] = []float32{1, 2, 2}
		}
		switch r.URL.Path {
		case "/api/embed":
			json.NewEncoder(w).Encode(map[string]any{"embeddings": vs})
		case "/v1/embeddings":
			if r.Header.Get("Authorization") != "Bearer secret" {
				http.Error(w, `{"error":{"message":"no key"}}`, http.StatusUnauthorized)
				return
			}
			var data []map[string]any
			for i, v := range vs {
				data = append(data, map[string]any{"index": i, "embedding": v})
			}
			json.NewEncoder(w).Encode(map[string]any{"data": data})
		}
	}))
	defer srv.Close()

	e, err := FromConfig(EmbedderConfig{Provider: "ollama", URL: srv.URL, Model: "nomic-embed-text"})
	if err != nil {
		t.Fatal(err)
	}
	if e.Name() != "ollama:nomic-embed-text" || e.Dim() != 0 {
		t.Errorf("%s/%d", e.Name(), e.Dim())
	}
	if err := Prepare(context.Background(), e); err != nil || e.Dim() != 3 {
		t.Errorf("prepare: %v, dim %d", err, e.Dim())
	}

	t.Setenv("TEST_EMBED_KEY", "secret")
	e, err = FromConfig(EmbedderConfig{Provider: "openai", URL: srv.URL, Model: "m", APIKeyEnv: "TEST_EMBED_KEY", Dim: 3})
	if err != nil {
		t.Fatal(err)
	}
	v, err := Query(context.Background(), e, "x")
	if err != nil || math.Abs(float64(v[1])-2.0/3) > 1e-6 {
		t.Errorf("openai: %v %v", v, err)
	}

	for _, c := range []struct {
		cfg  EmbedderConfig
		want string
	}{
		{EmbedderConfig{Provider: "openai", Model: "m", APIKeyEnv: "TEST_EMBED_UNSET"}, "TEST_EMBED_UNSET is not set"},
		{EmbedderConfig{Provider: "openai", Model: "text-embedding-3-small"}, "needs an API key"},
		{EmbedderConfig{Provider: "ollama"}, "no model given"},
		{EmbedderConfig{Provider: "cohere"}, `unknown embedder provider "cohere"`},
		{EmbedderConfig{Dim: -1}, "negative"},
	} {
		if _, err := FromConfig(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v", c.cfg, err)
		}
	}
}
