package searchtool

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/search/embed"
)

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
