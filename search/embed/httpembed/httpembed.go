// Package httpembed embeds texts through an HTTP embedding service: Ollama
// (POST {base}/api/embed) or any OpenAI-compatible server (POST
// {base}/v1/embeddings). It batches texts, bounds each request with a
// timeout, and retries rate limits (429), server errors (5xx) and broken
// connections a bounded number of times with exponential backoff and jitter,
// honouring Retry-After.
//
// Vectors are returned L2-normalised, so their dot product is their cosine.
// Blank texts are not sent: they embed to the zero vector. The dimension is
// configured or learnt from the first response (Prepare asks for it
// up front); a response of any other dimension is an error.
//
// The package depends on nothing in agentos; package embed wraps it as an
// Embedder.
package httpembed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// API is the protocol a service speaks.
type API string

// The supported APIs.
const (
	Ollama API = "ollama"
	OpenAI API = "openai"
)

// Default settings.
const (
	DefaultOllamaURL = "http://localhost:11434"
	DefaultOpenAIURL = "https://api.openai.com"
	DefaultBatchSize = 64
	DefaultTimeout   = 60 * time.Second
	DefaultRetries   = 4
	DefaultRetryBase = 500 * time.Millisecond
	maxRetryWait     = 20 * time.Second
	maxResponse      = 256 << 20
)

// Config says which service and model to use. Zero fields take defaults.
type Config struct {
	API       API
	URL       string        // base URL (default DefaultOllamaURL or DefaultOpenAIURL); an OpenAI base may end in /v1
	Model     string        // required
	APIKey    string        // sent as "Authorization: Bearer KEY" when set
	Dim       int           // expected dimension; 0: learnt from the first response
	BatchSize int           // texts per request
	Timeout   time.Duration // per request
	Retries   int           // retries after a retryable failure; negative: none
	RetryBase time.Duration // the first backoff; it doubles each retry (capped at 20 s)
	Client    *http.Client  // default: a client without an overall timeout (Timeout applies)
}

// Client is an embedder backed by an HTTP service. It is safe for
// concurrent use.
type Client struct {
	cfg      Config
	endpoint string
	dim      atomic.Int64
}

// New checks cfg and returns a client. It does not contact the service.
func New(cfg Config) (*Client, error) {
	switch cfg.API {
	case Ollama:
		if cfg.URL == "" {
			cfg.URL = DefaultOllamaURL
		}
	case OpenAI:
		if cfg.URL == "" {
			cfg.URL = DefaultOpenAIURL
		}
	default:
		return nil, fmt.Errorf("unknown embedding API %q (want %q or %q)", cfg.API, Ollama, OpenAI)
	}
	if cfg.Model == "" {
		return nil, fmt.Errorf("%s embedder: no model given", cfg.API)
	}
	if !strings.HasPrefix(cfg.URL, "http://") && !strings.HasPrefix(cfg.URL, "https://") {
		return nil, fmt.Errorf("%s embedder: URL %q must start with http:// or https://", cfg.API, cfg.URL)
	}
	if cfg.Dim < 0 {
		return nil, fmt.Errorf("%s embedder: negative dimension %d", cfg.API, cfg.Dim)
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Retries == 0 {
		cfg.Retries = DefaultRetries
	}
	if cfg.RetryBase <= 0 {
		cfg.RetryBase = DefaultRetryBase
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{}
	}
	base := strings.TrimRight(cfg.URL, "/")
	c := &Client{cfg: cfg}
	switch {
	case cfg.API == Ollama:
		c.endpoint = base + "/api/embed"
	case strings.HasSuffix(base, "/v1"):
		c.endpoint = base + "/embeddings"
	default:
		c.endpoint = base + "/v1/embeddings"
	}
	c.dim.Store(int64(cfg.Dim))
	return c, nil
}

// Name identifies the service's protocol and model, e.g. "ollama:nomic-embed-text".
func (c *Client) Name() string { return string(c.cfg.API) + ":" + c.cfg.Model }

// Dim is the dimension: configured, or learnt from the first response (0 before).
func (c *Client) Dim() int { return int(c.dim.Load()) }

// Prepare makes sure Dim is known, asking the service to embed one word
// when it is not.
func (c *Client) Prepare(ctx context.Context) error {
	if c.Dim() > 0 {
		return nil
	}
	_, err := c.batch(ctx, []string{"dimension"})
	return err
}

// Embed embeds texts, in batches.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var idx []int
	var send []string
	blanks := 0
	flush := func() error {
		if len(send) == 0 {
			return nil
		}
		vs, err := c.batch(ctx, send)
		if err != nil {
			return err
		}
		for i, v := range vs {
			out[idx[i]] = v
		}
		idx, send = idx[:0], send[:0]
		return nil
	}
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			blanks++
			continue
		}
		idx, send = append(idx, i), append(send, t)
		if len(send) == c.cfg.BatchSize {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if blanks > 0 { // zero vectors of the known dimension
		if err := c.Prepare(ctx); err != nil {
			return nil, err
		}
		for i := range out {
			if out[i] == nil {
				out[i] = make([]float32, c.Dim())
			}
		}
	}
	return out, nil
}

// batch embeds one request's texts.
func (c *Client) batch(ctx context.Context, texts []string) ([][]float32, error) {
	body, _ := json.Marshal(map[string]any{"model": c.cfg.Model, "input": texts})
	resp, err := c.post(ctx, body)
	if err != nil {
		return nil, err
	}
	vs, err := c.decode(resp, len(texts))
	if err != nil {
		return nil, fmt.Errorf("%s: unexpected response: %v", c.where(), err)
	}
	for _, v := range vs {
		want := c.dim.Load()
		if want == 0 && len(v) > 0 && c.dim.CompareAndSwap(0, int64(len(v))) {
			want = int64(len(v))
		}
		if int64(len(v)) != want {
			return nil, fmt.Errorf("%s returned a vector of %d dimensions, expected %d (model %q)", c.where(), len(v), want, c.cfg.Model)
		}
		normalize(v)
	}
	return vs, nil
}

func (c *Client) decode(body []byte, n int) ([][]float32, error) {
	var vs [][]float32
	if c.cfg.API == Ollama {
		var r struct {
			Embeddings [][]float32 `json:"embeddings"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			return nil, err
		}
		vs = r.Embeddings
	} else {
		var r struct {
			Data []struct {
				Embedding []float32 `json:"embedding"`
				Index     int       `json:"index"`
			} `json:"data"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			return nil, err
		}
		vs = make([][]float32, n)
		for _, d := range r.Data {
			if d.Index < 0 || d.Index >= n || vs[d.Index] != nil {
				return nil, fmt.Errorf("embedding index %d is out of range or repeated", d.Index)
			}
			vs[d.Index] = d.Embedding
		}
		if len(r.Data) != n {
			vs = vs[:len(r.Data)]
		}
	}
	if len(vs) != n {
		return nil, fmt.Errorf("%d embeddings for %d texts", len(vs), n)
	}
	for i, v := range vs {
		if len(v) == 0 {
			return nil, fmt.Errorf("empty embedding for text %d", i)
		}
	}
	return vs, nil
}

// retryable marks a failure worth another attempt; after is the server's
// Retry-After, when it gave one.
type retryable struct {
	err   error
	after time.Duration
}

func (r *retryable) Error() string { return r.err.Error() }
func (r *retryable) Unwrap() error { return r.err }

// post sends body, retrying retryable failures with backoff.
func (c *Client) post(ctx context.Context, body []byte) ([]byte, error) {
	for attempt := 0; ; attempt++ {
		resp, err := c.once(ctx, body)
		var re *retryable
		if err == nil || !errors.As(err, &re) {
			return resp, err
		}
		if attempt >= c.cfg.Retries {
			if attempt > 0 {
				return nil, fmt.Errorf("%w (gave up after %d attempts)", re.err, attempt+1)
			}
			return nil, re.err
		}
		wait := re.after
		if wait <= 0 {
			d := min(c.cfg.RetryBase<<attempt, maxRetryWait)
			wait = d/2 + rand.N(d/2+1) // jitter: between half and all of d
		}
		wait = min(wait, maxRetryWait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("%s: %w (while waiting to retry: %v)", c.where(), ctx.Err(), re.err)
		case <-t.C:
		}
	}
}

// once makes one request.
func (c *Client) once(ctx context.Context, body []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", c.where(), err)
	}
	rctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%s embedder: %v", c.cfg.API, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.cfg.Client.Do(req)
	if err == nil {
		defer resp.Body.Close()
		var data []byte
		data, err = io.ReadAll(io.LimitReader(resp.Body, maxResponse))
		if err == nil {
			return c.check(resp, data)
		}
	}
	switch {
	case ctx.Err() != nil: // the caller gave up
		return nil, fmt.Errorf("%s: %w", c.where(), ctx.Err())
	case rctx.Err() != nil:
		return nil, &retryable{err: fmt.Errorf("%s did not answer within %s", c.where(), c.cfg.Timeout)}
	case errors.Is(err, syscall.ECONNREFUSED):
		hint := ""
		if c.cfg.API == Ollama {
			hint = " (is Ollama running? start it with `ollama serve`)"
		}
		return nil, fmt.Errorf("cannot reach %s%s: %v", c.where(), hint, err)
	}
	return nil, &retryable{err: fmt.Errorf("cannot reach %s: %v", c.where(), err)}
}

// check turns a response into its body or an error.
func (c *Client) check(resp *http.Response, data []byte) ([]byte, error) {
	if resp.StatusCode/100 == 2 {
		return data, nil
	}
	err := fmt.Errorf("%s: %s (HTTP %d)", c.where(), serverMessage(data, resp.Status), resp.StatusCode)
	switch {
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return nil, &retryable{err: err, after: retryAfter(resp.Header.Get("Retry-After"))}
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, fmt.Errorf("%w; check the API key", err)
	case resp.StatusCode == http.StatusNotFound && c.cfg.API == Ollama:
		return nil, fmt.Errorf("%w; is the model pulled (`ollama pull %s`)?", err, c.cfg.Model)
	}
	return nil, err
}

func (c *Client) where() string { return fmt.Sprintf("%s at %s", c.cfg.API, c.endpoint) }

// serverMessage finds the error message in a response body: Ollama's
// {"error": "..."}, OpenAI's {"error": {"message": "..."}}, or the text.
func serverMessage(body []byte, status string) string {
	var r struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &r) == nil && len(r.Error) > 0 {
		var s string
		if json.Unmarshal(r.Error, &s) == nil && s != "" {
			return s
		}
		var o struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(r.Error, &o) == nil && o.Message != "" {
			return o.Message
		}
	}
	text := strings.Join(strings.Fields(string(body)), " ")
	if text == "" {
		return status
	}
	if len(text) > 200 {
		text = text[:200] + "…"
	}
	return text
}

// retryAfter reads a Retry-After header given in seconds or as a date.
func retryAfter(h string) time.Duration {
	if h == "" {
		return 0
	}
	if s, err := strconv.Atoi(h); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}

func normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	k := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= k
	}
}
