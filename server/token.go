package server

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
)

// loadToken returns the bearer token the HTTP transport requires, creating it
// (mode 0600) on first use; "" when auth is off.
func loadToken(p project.Paths, auth string) (string, error) {
	if auth != config.AuthToken {
		return "", nil
	}
	if tok, err := ReadToken(p); err == nil {
		return tok, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	tok := hex.EncodeToString(raw)
	if err := atomicfile.WriteFile(p.AuthToken(), []byte(tok+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("create auth token: %w", err)
	}
	return tok, nil
}

// ReadToken reads the project's bearer token, for clients on this machine.
func ReadToken(p project.Paths) (string, error) {
	data, err := os.ReadFile(p.AuthToken())
	if err != nil {
		return "", fmt.Errorf("read auth token: %w", err)
	}
	tok := strings.TrimSpace(string(data))
	if tok == "" {
		return "", fmt.Errorf("auth token file %s is empty; delete it and restart the server to create a new one", p.AuthToken())
	}
	return tok, nil
}
