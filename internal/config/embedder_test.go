package config

import (
	"fmt"
	"strings"
	"testing"
)

func TestAPIKeyEnvRule(t *testing.T) {
	parse := func(name string) error {
		_, err := Parse(fmt.Appendf(nil, "search:\n  embedder:\n    provider: openai\n    model: m\n    api_key_env: %q\n", name))
		return err
	}
	// The names real embedding setups use.
	for _, name := range []string{"OPENAI_API_KEY", "AZURE_OPENAI_API_KEY", "AZURE_OPENAI_KEY", "OLLAMA_API_KEY", "VOYAGE_API_KEY",
		"JINA_API_KEY", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "TOGETHER_API_KEY", "MISTRAL_API_KEY", "COHERE_API_KEY", "LITELLM_MASTER_KEY", "EMBED2_API_KEY"} {
		if err := parse(name); err != nil {
			t.Errorf("%s refused: %v", name, err)
		}
	}
	// Not key-shaped: refused with the rule.
	for _, name := range []string{"PATH", "HOME", "DATABASE_URL", "SSH_AUTH_SOCK", "openai_api_key", "KEY", "_API_KEY", "MY KEY_TOKEN", "OPENAI_API_KEY2"} {
		err := parse(name)
		if err == nil || !strings.Contains(err.Error(), "search.embedder.api_key_env is "+fmt.Sprintf("%q", name)) ||
			!strings.Contains(err.Error(), "ending in _API_KEY, _KEY or _TOKEN") {
			t.Errorf("%q: %v", name, err)
		}
	}
	// Key-shaped, but the credentials of something else.
	for _, name := range []string{"GITHUB_TOKEN", "GH_TOKEN", "NPM_TOKEN", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "SSH_PRIVATE_KEY", "STRIPE_SECRET_KEY"} {
		if err := parse(name); err == nil || !strings.Contains(err.Error(), "names "+name+", a well-known credential of another service") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestEmbedderURL(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:11434", "https://api.openai.com/v1", "http://[::1]:8080"} {
		if _, err := Parse(fmt.Appendf(nil, "search:\n  embedder:\n    url: %q\n", u)); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	for _, u := range []string{"127.0.0.1:11434", "ftp://host/x", "http://", "file:///etc/passwd"} {
		if _, err := Parse(fmt.Appendf(nil, "search:\n  embedder:\n    url: %q\n", u)); err == nil || !strings.Contains(err.Error(), "search.embedder.url must be an http:// or https:// URL") {
			t.Errorf("%s: %v", u, err)
		}
	}
}
