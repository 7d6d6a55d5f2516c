package config

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// APIKeyEnvRule says which variable names search.embedder.api_key_env may
// hold. The variable's value is sent to search.embedder.url as a bearer
// token, so the name must look like an API key's: PATH, HOME or
// DATABASE_URL are refused, whoever wrote the file.
const APIKeyEnvRule = "upper-case letters, digits and underscores ending in _API_KEY, _KEY or _TOKEN, such as OPENAI_API_KEY, VOYAGE_API_KEY or HF_TOKEN"

var apiKeyName = regexp.MustCompile(`^[A-Z][A-Z0-9_]*_(API_KEY|KEY|TOKEN)$`)

// Well-known credentials that fit APIKeyEnvRule but are never an embedding
// service's key: source hosting, CI, package registries, cloud accounts,
// private and secret keys. The list cannot be complete, and it is not the
// fence (the config file being out of an agent's reach is, and the server
// names at start where the key goes); it refuses the secrets most often
// present in a developer's or a CI job's environment, at no cost to anyone.
var (
	otherCredentials = []string{
		"GITHUB_TOKEN", "GH_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "GITLAB_TOKEN", "CI_JOB_TOKEN",
		"ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
		"NPM_TOKEN", "NODE_AUTH_TOKEN", "PYPI_TOKEN", "CARGO_REGISTRY_TOKEN",
		"AWS_SESSION_TOKEN", "VAULT_TOKEN",
	}
	otherCredentialSuffixes = []string{"_PRIVATE_KEY", "_SECRET_KEY", "_ACCESS_KEY"} // SSH_PRIVATE_KEY, AWS_SECRET_ACCESS_KEY
)

// validate checks the embedder keys the schema cannot.
func (e Embedder) validate() []error {
	var errs []error
	if p := e.Provider; p != "" && !slices.Contains(EmbedderProviders, p) {
		errs = append(errs, fmt.Errorf("search.embedder.provider must be one of %s, not %q", strings.Join(EmbedderProviders, ", "), p))
	}
	if e.URL != "" {
		if u, err := url.Parse(e.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
			errs = append(errs, fmt.Errorf("search.embedder.url must be an http:// or https:// URL with a host, not %q", e.URL))
		}
	}
	if err := checkAPIKeyEnv(e.APIKeyEnv); err != nil {
		errs = append(errs, err)
	}
	return errs
}

func checkAPIKeyEnv(name string) error {
	switch {
	case name == "":
		return nil
	case !apiKeyName.MatchString(name):
		return fmt.Errorf("search.embedder.api_key_env is %q, which does not look like an API key variable: its value is sent to the embedder as a bearer token, so it must be %s", name, APIKeyEnvRule)
	case slices.Contains(otherCredentials, name) || slices.ContainsFunc(otherCredentialSuffixes, func(s string) bool { return strings.HasSuffix(name, s) }):
		return fmt.Errorf("search.embedder.api_key_env names %s, a well-known credential of another service, not an embedding key: agentos does not send it to an embedder; name the variable that holds the embedding service's key", name)
	}
	return nil
}
