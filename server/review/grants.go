package review

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sync"
	"time"
)

// MaxGrantLifetime caps how long a review link works, however long the
// command that asked for it runs.
const MaxGrantLifetime = 12 * time.Hour

// maxGrants caps the links alive at once, and maxPages the pages one link
// may have open (each with its own CSRF token; the oldest is dropped).
const (
	maxGrants = 16
	maxPages  = 32
)

var errTooManyGrants = errors.New("too many review links are open; close the other `agentos review` commands first")

// grants holds the review tokens alive now. A token exists only in this
// memory and in the answer to the command that asked for it; it is never
// written anywhere. Tokens are kept by their SHA-256, so looking one up
// takes no time that depends on how much of a guess was right.
type grants struct {
	mu  sync.Mutex
	now func() time.Time
	m   map[[32]byte]*grant
}

// grant is one live review link.
type grant struct {
	expires time.Time
	pages   []string // CSRF tokens of the pages served under this grant, oldest first
}

func newGrants(now func() time.Time) *grants {
	return &grants{now: now, m: map[[32]byte]*grant{}}
}

func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand's contract since Go 1.24)
	return hex.EncodeToString(b)
}

// mint creates a token valid until revoke or until lifetime (at most
// MaxGrantLifetime) has passed; others counts the links alive besides it.
func (g *grants) mint(lifetime time.Duration) (token string, expires time.Time, others int, err error) {
	if lifetime <= 0 || lifetime > MaxGrantLifetime {
		lifetime = MaxGrantLifetime
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.dropExpired()
	if len(g.m) >= maxGrants {
		return "", time.Time{}, 0, errTooManyGrants
	}
	token = randomToken()
	expires = g.now().Add(lifetime)
	others = len(g.m)
	g.m[sha256.Sum256([]byte(token))] = &grant{expires: expires}
	return token, expires, others, nil
}

func (g *grants) revoke(token string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.m, sha256.Sum256([]byte(token)))
}

func (g *grants) dropExpired() {
	now := g.now()
	for k, gr := range g.m {
		if !now.Before(gr.expires) {
			delete(g.m, k)
		}
	}
}

// live returns the grant of token while it is valid.
func (g *grants) live(token string) (*grant, bool) {
	if token == "" {
		return nil, false
	}
	gr, ok := g.m[sha256.Sum256([]byte(token))]
	if !ok || !g.now().Before(gr.expires) {
		return nil, false
	}
	return gr, true
}

// valid reports whether token is a live review token.
func (g *grants) valid(token string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, ok := g.live(token)
	return ok
}

// newPage records a page served under token and returns its CSRF token;
// ok is false when token is not live.
func (g *grants) newPage(token string) (csrf string, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	gr, ok := g.live(token)
	if !ok {
		return "", false
	}
	csrf = randomToken()
	gr.pages = append(gr.pages, csrf)
	if len(gr.pages) > maxPages {
		gr.pages = gr.pages[len(gr.pages)-maxPages:]
	}
	return csrf, true
}

// pageValid reports whether csrf belongs to a page served under the live
// token.
func (g *grants) pageValid(token, csrf string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	gr, ok := g.live(token)
	if !ok || csrf == "" {
		return false
	}
	for _, p := range gr.pages {
		if constantEqual(p, csrf) {
			return true
		}
	}
	return false
}
