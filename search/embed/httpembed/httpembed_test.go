package httpembed

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// vec is what the fake services return for a text: [len, 1, 0].
func vec(text string) []float32 { return []float32{float32(len(text)), 1, 0} }

type request struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

func decodeRequest(t *testing.T, r *http.Request) request {
	t.Helper()
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		t.Errorf("request body: %v", err)
	}
	if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("%s with %q", r.Method, r.Header.Get("Content-Type"))
	}
	return req
}

func ollama(t *testing.T, calls *atomic.Int32) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path != "/api/embed" {
			http.NotFound(w, r)
			return
		}
		req := decodeRequest(t, r)
		if req.Model != "nomic" {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":"model \"` + req.Model + `\" not found, try pulling it first"}`))
			return
		}
		var out [][]float32
		for _, in := range req.Input {
			out = append(out, vec(in))
		}
		json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "embeddings": out})
	}))
}

func openai(t *testing.T, key string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" {
			http.NotFound(w, r)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`))
			return
		}
		req := decodeRequest(t, r)
		type item struct {
			Object    string    `json:"object"`
			Embedding []float32 `json:"embedding"`
			Index     int       `json:"index"`
		}
		var data []item
		for i := len(req.Input) - 1; i >= 0; i-- { // out of order: the index decides
			data = append(data, item{"embedding", vec(req.Input[i]), i})
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
	}))
}

func unit(v []float32) []float32 {
	n := float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
	return []float32{v[0] / n, v[1] / n, v[2] / n}
}

func same(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-6 {
			return false
		}
	}
	return true
}

func TestOllama(t *testing.T) {
	var calls atomic.Int32
	srv := ollama(t, &calls)
	defer srv.Close()
	c, err := New(Config{API: Ollama, URL: srv.URL + "/", Model: "nomic", BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	if c.Name() != "ollama:nomic" || c.Dim() != 0 {
		t.Fatalf("name %q dim %d", c.Name(), c.Dim())
	}
	texts := []string{"a", "bb", "", "ccc", "dddd", "  "}
	vs, err := c.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if c.Dim() != 3 {
		t.Errorf("dim %d", c.Dim())
	}
	if n := calls.Load(); n != 2 { // four non-blank texts in batches of two
		t.Errorf("%d requests", n)
	}
	for i, text := range texts {
		want := []float32{0, 0, 0}
		if strings.TrimSpace(text) != "" {
			want = unit(vec(text))
		}
		if !same(vs[i], want) {
			t.Errorf("%q: %v, want %v", text, vs[i], want)
		}
	}

	bad, _ := New(Config{API: Ollama, URL: srv.URL, Model: "nope"})
	_, err = bad.Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), `model "nope" not found`) || !strings.Contains(err.Error(), "HTTP 404") ||
		!strings.Contains(err.Error(), "ollama pull nope") {
		t.Errorf("unknown model: %v", err)
	}
}

func TestOpenAI(t *testing.T) {
	srv := openai(t, "sk-test")
	defer srv.Close()
	for _, base := range []string{srv.URL, srv.URL + "/v1"} {
		c, err := New(Config{API: OpenAI, URL: base, Model: "text-embedding-3-small", APIKey: "sk-test", Dim: 3})
		if err != nil {
			t.Fatal(err)
		}
		texts := []string{"one", "three", "fifteen"}
		vs, err := c.Embed(context.Background(), texts)
		if err != nil {
			t.Fatal(err)
		}
		for i := range texts {
			if !same(vs[i], unit(vec(texts[i]))) {
				t.Errorf("%s %q: %v", base, texts[i], vs[i])
			}
		}
	}
	c, _ := New(Config{API: OpenAI, URL: srv.URL, Model: "m", APIKey: "wrong"})
	_, err := c.Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "Incorrect API key provided (HTTP 401); check the API key") {
		t.Errorf("bad key: %v", err)
	}
}

func TestPrepareAndDimensionMismatch(t *testing.T) {
	var calls atomic.Int32
	srv := ollama(t, &calls)
	defer srv.Close()
	c, _ := New(Config{API: Ollama, URL: srv.URL, Model: "nomic"})
	if err := c.Prepare(context.Background()); err != nil || c.Dim() != 3 {
		t.Fatalf("prepare: %v, dim %d", err, c.Dim())
	}
	if err := c.Prepare(context.Background()); err != nil || calls.Load() != 1 {
		t.Errorf("second prepare asked again: %v, %d calls", err, calls.Load())
	}
	// Only blanks: the dimension is known, nothing is sent.
	vs, err := c.Embed(context.Background(), []string{""})
	if err != nil || len(vs[0]) != 3 || calls.Load() != 1 {
		t.Errorf("blank: %v %v %d", vs, err, calls.Load())
	}

	c, _ = New(Config{API: Ollama, URL: srv.URL, Model: "nomic", Dim: 768})
	_, err = c.Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "3 dimensions, expected 768") {
		t.Errorf("mismatch: %v", err)
	}
}

func TestRetries(t *testing.T) {
	var calls atomic.Int32
	inner := ollama(t, new(atomic.Int32))
	defer inner.Close()
	fails := []int{http.StatusServiceUnavailable, http.StatusTooManyRequests, http.StatusBadGateway}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(calls.Add(1))
		if n <= len(fails) {
			if fails[n-1] == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", "0")
			}
			w.WriteHeader(fails[n-1])
			w.Write([]byte(`{"error":"busy"}`))
			return
		}
		resp, err := http.Post(inner.URL+r.URL.Path, "application/json", r.Body)
		if err != nil {
			t.Error(err)
			return
		}
		defer resp.Body.Close()
		var v any
		json.NewDecoder(resp.Body).Decode(&v)
		json.NewEncoder(w).Encode(v)
	}))
	defer srv.Close()
	c, _ := New(Config{API: Ollama, URL: srv.URL, Model: "nomic", RetryBase: time.Millisecond})
	vs, err := c.Embed(context.Background(), []string{"abc"})
	if err != nil || !same(vs[0], unit(vec("abc"))) {
		t.Fatalf("after retries: %v %v", vs, err)
	}
	if calls.Load() != 4 {
		t.Errorf("%d attempts, want 4", calls.Load())
	}
}

func TestRetriesAreBounded(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte("<html>internal error</html>"))
	}))
	defer srv.Close()
	c, _ := New(Config{API: OpenAI, URL: srv.URL, Model: "m", Retries: 2, RetryBase: time.Millisecond})
	_, err := c.Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "<html>internal error</html> (HTTP 500)") ||
		!strings.Contains(err.Error(), "gave up after 3 attempts") {
		t.Errorf("error: %v", err)
	}
	if calls.Load() != 3 {
		t.Errorf("%d attempts, want 3", calls.Load())
	}

	// A client error is not retried.
	calls.Store(0)
	srv400 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":{"message":"input too long"}}`))
	}))
	defer srv400.Close()
	c, _ = New(Config{API: OpenAI, URL: srv400.URL, Model: "m", RetryBase: time.Millisecond})
	_, err = c.Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "input too long (HTTP 400)") || calls.Load() != 1 {
		t.Errorf("400: %v after %d attempts", err, calls.Load())
	}
}

func TestTimeoutsAndCancel(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)

	c, _ := New(Config{API: Ollama, URL: srv.URL, Model: "m", Timeout: 20 * time.Millisecond, Retries: 1, RetryBase: time.Millisecond})
	_, err := c.Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "did not answer within 20ms") || !strings.Contains(err.Error(), "2 attempts") {
		t.Errorf("timeout: %v", err)
	}

	c, _ = New(Config{API: Ollama, URL: srv.URL, Model: "m"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = c.Embed(ctx, []string{"x"})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("cancel: %v after %s", err, time.Since(start))
	}
}

func TestUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c, _ := New(Config{API: Ollama, URL: url, Model: "m", RetryBase: time.Hour}) // a retry would hang the test
	_, err := c.Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "cannot reach ollama at "+url) || !strings.Contains(err.Error(), "ollama serve") {
		t.Errorf("unreachable: %v", err)
	}
}

func TestBadResponses(t *testing.T) {
	for _, c := range []struct {
		name, body, want string
	}{
		{"not JSON", `<html>`, "unexpected response"},
		{"too few", `{"embeddings":[[1,2]]}`, "1 embeddings for 2 texts"},
		{"empty vector", `{"embeddings":[[],[1]]}`, "empty embedding for text 0"},
		{"ragged", `{"embeddings":[[1,2],[1,2,3]]}`, "3 dimensions, expected 2"},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(c.body)) }))
		cl, _ := New(Config{API: Ollama, URL: srv.URL, Model: "m"})
		_, err := cl.Embed(context.Background(), []string{"a", "b"})
		srv.Close()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"data":[{"embedding":[1],"index":0},{"embedding":[1],"index":0}]}`))
	}))
	defer srv.Close()
	cl, _ := New(Config{API: OpenAI, URL: srv.URL, Model: "m"})
	if _, err := cl.Embed(context.Background(), []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "index 0 is out of range or repeated") {
		t.Errorf("repeated index: %v", err)
	}
}

func TestNewValidates(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{API: "cohere", Model: "m"}, `unknown embedding API "cohere"`},
		{Config{API: Ollama}, "no model given"},
		{Config{API: OpenAI, Model: "m", URL: "localhost:8080"}, "must start with http://"},
	} {
		if _, err := New(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v", c.cfg, err)
		}
	}
}
