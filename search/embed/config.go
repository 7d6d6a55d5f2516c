package embed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/agentos-dev/agentos/models"
	"github.com/agentos-dev/agentos/search/embed/httpembed"
	"github.com/agentos-dev/agentos/search/embed/model2vec"
)

// EmbedderConfig chooses the embedder: it mirrors the search.embedder
// settings. Fields a provider does not use are ignored.
//
//	provider     builtin    the built-in Hashing embedder (also when Provider is empty)
//	             model2vec  a static model2vec model on disk (package model2vec)
//	             ollama     an Ollama server (package httpembed)
//	             openai     an OpenAI-compatible server (package httpembed)
//	model        model2vec: a hub name (OWNER/NAME) pulled with `agentos models pull`,
//	             looked up in the models folder (models.Dir);
//	             ollama, openai: the model to ask for (required)
//	path         model2vec: the model's directory; wins over model. A relative path is
//	             taken from the working directory: callers resolve it against the project.
//	url          ollama, openai: the base URL (default http://localhost:11434 and
//	             https://api.openai.com; an OpenAI-compatible base may end in /v1)
//	api_key_env  ollama, openai: the environment variable holding a bearer API key
//	             (required for api.openai.com)
//	dim          builtin: the dimension (0: DefaultDim); others: the dimension expected,
//	             an error at load (model2vec) or first use (ollama, openai) when it
//	             differs; 0: whatever the model has
//
// Every embedder returns unit-length vectors: a model2vec model whose
// config.json does not normalise is normalised anyway (and named so).
type EmbedderConfig struct {
	Provider  string
	Model     string
	Path      string
	URL       string
	APIKeyEnv string
	Dim       int
}

// The providers EmbedderConfig accepts.
const (
	ProviderBuiltin   = "builtin"
	ProviderModel2Vec = "model2vec"
	ProviderOllama    = "ollama"
	ProviderOpenAI    = "openai"
)

var (
	_ Embedder = (*Hashing)(nil)
	_ Embedder = (*model2vec.Model)(nil)
	_ Embedder = (*httpembed.Client)(nil)
	_ Preparer = (*httpembed.Client)(nil)
)

// FromConfig returns the embedder cfg describes. It reads a model2vec model
// from disk but contacts no service: call Prepare before the embedder's Dim
// is used.
func FromConfig(cfg EmbedderConfig) (Embedder, error) {
	if cfg.Dim < 0 {
		return nil, fmt.Errorf("embedder dimension %d is negative", cfg.Dim)
	}
	switch p := strings.ToLower(strings.TrimSpace(cfg.Provider)); p {
	case "", ProviderBuiltin:
		return NewHashing(cfg.Dim), nil
	case ProviderModel2Vec:
		return model2vecFromConfig(cfg)
	case ProviderOllama, ProviderOpenAI:
		key := ""
		if cfg.APIKeyEnv != "" {
			if key = os.Getenv(cfg.APIKeyEnv); key == "" {
				return nil, fmt.Errorf("%s embedder: the API key variable %s is not set", p, cfg.APIKeyEnv)
			}
		} else if p == ProviderOpenAI && (cfg.URL == "" || strings.Contains(cfg.URL, "api.openai.com")) {
			return nil, fmt.Errorf("openai embedder: api.openai.com needs an API key; name the environment variable that holds it (api_key_env)")
		}
		return httpembed.New(httpembed.Config{API: httpembed.API(p), URL: cfg.URL, Model: cfg.Model, APIKey: key, Dim: cfg.Dim})
	default:
		return nil, fmt.Errorf("unknown embedder provider %q (want %s, %s, %s or %s)", cfg.Provider,
			ProviderBuiltin, ProviderModel2Vec, ProviderOllama, ProviderOpenAI)
	}
}

func model2vecFromConfig(cfg EmbedderConfig) (Embedder, error) {
	dir := cfg.Path
	if dir == "" {
		if cfg.Model == "" {
			return nil, errors.New("model2vec embedder: give a path (a model directory) or a model (a name pulled with `agentos models pull`)")
		}
		root, err := models.Dir()
		if err != nil {
			return nil, err
		}
		if dir, err = models.Path(root, cfg.Model); err != nil {
			return nil, fmt.Errorf("model2vec embedder: %w", err)
		}
		if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("model2vec embedder: %s is not downloaded (looked in %s); run `agentos models pull %s`", cfg.Model, dir, cfg.Model)
		}
	}
	m, err := model2vec.Load(dir)
	if err != nil {
		return nil, err
	}
	if cfg.Dim > 0 && m.Dim() != cfg.Dim {
		return nil, fmt.Errorf("model2vec embedder: %s has %d dimensions, the configuration says %d", dir, m.Dim(), cfg.Dim)
	}
	return m.WithNormalize(true), nil
}

// Preparer is implemented by embedders that need a first contact before
// use: the HTTP embedders learn their dimension from the service.
type Preparer interface {
	Prepare(ctx context.Context) error
}

// Prepare readies e if it needs it (a no-op for the others). Call it before
// relying on e.Dim(), for instance before building an index.
func Prepare(ctx context.Context, e Embedder) error {
	if p, ok := e.(Preparer); ok {
		return p.Prepare(ctx)
	}
	return nil
}
