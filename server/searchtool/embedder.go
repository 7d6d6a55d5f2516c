package searchtool

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"path/filepath"
	"time"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/loopback"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/search/embed"
	"github.com/agentos-dev/agentos/search/embed/httpembed"
)

// logEmbedder says at start which embedder the indexes use and, for a
// service, where it sends text: at INFO, and loudly (WARN) when that is
// another machine, since every search query and the text of every indexed
// chunk goes there, with the key when one is configured.
func logEmbedder(log *slog.Logger, c config.Embedder) {
	base := c.URL
	switch c.Provider {
	case embed.ProviderOllama:
		if base == "" {
			base = httpembed.DefaultOllamaURL
		}
	case embed.ProviderOpenAI:
		if base == "" {
			base = httpembed.DefaultOpenAIURL
		}
	case "", embed.ProviderBuiltin:
		log.Info("search embedder", "provider", embed.ProviderBuiltin)
		return
	default:
		log.Info("search embedder", "provider", c.Provider, "model", c.Model, "path", c.Path)
		return
	}
	log.Info("search embedder", "provider", c.Provider, "model", c.Model, "url", base, "api_key_env", c.APIKeyEnv)
	u, err := url.Parse(base)
	if err != nil || loopback.Is(u.Hostname()) {
		return // an unusable URL is reported when the embedder is built
	}
	key := "no API key"
	if c.APIKeyEnv != "" {
		key = "the API key from $" + c.APIKeyEnv
		if u.Scheme == "http" {
			key += ", unencrypted (http)"
		}
	}
	log.Warn(fmt.Sprintf("search.embedder sends every search query and the text of every indexed chunk of code and standards to %s, which is not this machine, with %s", u.Host, key), "url", base)
}

// embedderFor builds the embedder search.embedder names; nil means the
// engine's built-in one. A service that must be asked for its vector size is
// asked now, so the indexes are sized right from the start.
func embedderFor(ctx context.Context, p project.Paths, c config.Embedder) (embed.Embedder, error) {
	if c.Provider == "" || c.Provider == embed.ProviderBuiltin {
		return nil, nil
	}
	path := c.Path
	if path != "" && !filepath.IsAbs(path) {
		path = filepath.Join(p.Root, filepath.FromSlash(path))
	}
	e, err := embed.FromConfig(embed.EmbedderConfig{
		Provider: c.Provider, Model: c.Model, Path: path, URL: c.URL, APIKeyEnv: c.APIKeyEnv, Dim: c.Dim,
	})
	if err != nil {
		return nil, fmt.Errorf("search.embedder: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := embed.Prepare(ctx, e); err != nil {
		return nil, fmt.Errorf("search.embedder: %w", err)
	}
	return e, nil
}

// withEmbedder gives a spec the configured embedder, or disables it with the
// reason the embedder cannot be used: a misconfigured embedder is reported,
// never silently replaced.
func (s spec) withEmbedder(e embed.Embedder, err error) spec {
	switch {
	case err != nil && s.disabled == "":
		s.disabled = err.Error()
	case e != nil:
		s.opt.Embedder = e
	}
	return s
}
