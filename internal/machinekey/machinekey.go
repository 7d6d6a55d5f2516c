// Package machinekey owns this machine's key for signing agentos state
// (workflow sessions and their audit logs). The key lives outside every
// project — in the user's config folder, readable by the user only — so a
// hand edit of a project's state is detected: the editor cannot recompute
// the signature. State carries the key's id, never the key, so state
// written on a teammate's machine reads as "another machine", not as
// tampered.
package machinekey

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// EnvDir names the folder holding the key instead of the user's config
// folder (tests and unusual setups).
const EnvDir = "AGENTOS_CONFIG_HOME"

// Key is a machine's signing key.
type Key struct {
	secret []byte
	// ID identifies the key in signed state: a hash of it, not the key.
	ID string
	// Host is this machine's name, recorded beside the id so a person can
	// tell whose machine signed something.
	Host string
}

// Path returns where the key lives: $AGENTOS_CONFIG_HOME/state.key, else
// agentos/state.key in the user's config folder.
func Path() (string, error) {
	if dir := os.Getenv(EnvDir); dir != "" {
		return filepath.Join(dir, "state.key"), nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find the folder for agentos's signing key: %w; set %s", err, EnvDir)
	}
	return filepath.Join(dir, "agentos", "state.key"), nil
}

// Load reads this machine's key, creating it (mode 0600) on first use.
func Load() (*Key, error) {
	path, err := Path()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		if err := create(path); err != nil {
			return nil, fmt.Errorf("create the signing key %s: %w", path, err)
		}
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("read the signing key: %w", err)
	}
	if runtime.GOOS != "windows" {
		if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
			return nil, fmt.Errorf("the signing key %s is readable by other users (mode %v); run chmod 600 on it", path, fi.Mode().Perm())
		}
	}
	secret, err := hex.DecodeString(strings.TrimSpace(string(data)))
	if err != nil || len(secret) != 32 {
		return nil, fmt.Errorf("the signing key %s is not 64 hex digits; remove it to make a new one (state this machine signed then reads as another machine's)", path)
	}
	return New(secret), nil
}

// create writes a new random key at path without ever replacing one: the
// key is written in full to a temporary file and linked into place, so a
// second process creating it at the same time keeps the first one's key and
// no reader sees a half-written file.
func create(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".state.key-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		tmp.Close()
		return err
	}
	if _, err := tmp.WriteString(hex.EncodeToString(secret) + "\n"); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	return nil
}

// New returns the key with the given secret.
func New(secret []byte) *Key {
	sum := sha256.Sum256(append([]byte("agentos state key id\n"), secret...))
	host, _ := os.Hostname()
	return &Key{secret: secret, ID: hex.EncodeToString(sum[:8]), Host: host}
}

// MAC returns the HMAC-SHA256 of parts, each length-prefixed so that no two
// different lists of parts sign alike.
func (k *Key) MAC(parts ...[]byte) string {
	m := hmac.New(sha256.New, k.secret)
	var n [8]byte
	for _, p := range parts {
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		m.Write(n[:])
		m.Write(p)
	}
	return hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether mac is the MAC of parts.
func (k *Key) Verify(mac string, parts ...[]byte) bool {
	return hmac.Equal([]byte(mac), []byte(k.MAC(parts...)))
}
