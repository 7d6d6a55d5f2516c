package server

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/agentos-dev/agentos/internal/machinekey"
)

// sessionIDs issues the HTTP transport's session ids and forgets a client
// when it ends its session (DELETE, or mcp-go's sweep of idle sessions). An
// id is signed with this machine's key for this project, so a server that
// takes over as the project's primary accepts the sessions of the one before
// it: an HTTP client carries on across a failover without a new handshake,
// while an id from another project's server (or a made-up one) is refused.
//
// An id also names the client that opened the session, as it introduced
// itself at initialize (clientInfo name and version):
//
//	mcp-session-<nonce>.<name>.<version>.<mac>
//
// with name and version in unpadded base64url and the MAC over the project
// root, the nonce, the name and the version. Clients of protocol 2025-06-18
// (opencode, for one) say who they are only at initialize, and the server
// that takes over never saw it; without the name it would take the client
// for an unknown one and refuse it every change to the workflow sessions it
// owns (workflow owners are client names). Carrying the name in the id the
// client already sends on every request keeps the server stateless: nothing
// is written at initialize, nothing is lost when a primary is killed, and
// nothing needs pruning. A file of names per session under .agentos/state
// was the other way; it would be written on every initialize, raced by a
// dying primary and grow until swept. Because the MAC covers the name, a
// client cannot claim another's identity by editing its id, and an id of
// another project does not verify at all.
//
// mcp-go calls Generate before it handles the initialize request, without
// it; the endpoint therefore reads the client info from the request body and
// hands it over in the request's context (withInitializingClient), and
// sessionIDs, as mcp-go's SessionIdManagerResolver, issues the id for that
// client (ResolveSessionIdManager). A name longer than maxOwnerName, or no
// name, gives an id without one (mcp-session-<nonce>.<mac>, the form every
// id had before), and a version longer than maxOwnerVersion is left out:
// the owner is known by its name alone. Ids of either form verify.
type sessionIDs struct {
	key        *machinekey.Key
	project    string // the project root, signed into every id
	clients    *clients
	terminated sync.Map // ids ended by DELETE or expiry
}

const sessionPrefix = "mcp-session-"

// maxOwnerName and maxOwnerVersion bound what an id carries, so ids stay
// short (at most 208 characters): client names are a word or two.
const (
	maxOwnerName    = 64
	maxOwnerVersion = 32
)

var ownerEncoding = base64.RawURLEncoding

// Generate issues an id that names no client: for a GET that opens an event
// stream without a session, and for a client that gave no usable name.
func (m *sessionIDs) Generate() string {
	return m.issue(mcp.Implementation{})
}

// issue returns a new id for a session of client.
func (m *sessionIDs) issue(client mcp.Implementation) string {
	nonce := make([]byte, 16)
	rand.Read(nonce)
	n := hex.EncodeToString(nonce)
	if client.Name == "" || len(client.Name) > maxOwnerName {
		return sessionPrefix + n + "." + m.mac(n)
	}
	if len(client.Version) > maxOwnerVersion {
		client.Version = ""
	}
	name, version := ownerEncoding.EncodeToString([]byte(client.Name)), ownerEncoding.EncodeToString([]byte(client.Version))
	return sessionPrefix + n + "." + name + "." + version + "." + m.ownerMAC(n, client)
}

// mac signs an id that names no client.
func (m *sessionIDs) mac(nonce string) string {
	return m.key.MAC([]byte("mcp session"), []byte(m.project), []byte(nonce))[:32]
}

// ownerMAC signs an id that names its client; its first part keeps it from
// ever signing alike with mac.
func (m *sessionIDs) ownerMAC(nonce string, client mcp.Implementation) string {
	return m.key.MAC([]byte("mcp session owner"), []byte(m.project), []byte(nonce), []byte(client.Name), []byte(client.Version))[:32]
}

// parse verifies id and returns the client it names (a zero Implementation
// for an id that names none).
func (m *sessionIDs) parse(id string) (mcp.Implementation, error) {
	bad := fmt.Errorf("unknown session id %q", id)
	rest, ok := strings.CutPrefix(id, sessionPrefix)
	if !ok {
		return mcp.Implementation{}, bad
	}
	parts := strings.Split(rest, ".")
	if len(parts[0]) != 32 {
		return mcp.Implementation{}, bad
	}
	switch len(parts) {
	case 2:
		if !hmac.Equal([]byte(parts[1]), []byte(m.mac(parts[0]))) {
			return mcp.Implementation{}, bad
		}
		return mcp.Implementation{}, nil
	case 4:
		name, errName := ownerEncoding.DecodeString(parts[1])
		version, errVersion := ownerEncoding.DecodeString(parts[2])
		if errName != nil || errVersion != nil || len(name) == 0 || len(name) > maxOwnerName || len(version) > maxOwnerVersion {
			return mcp.Implementation{}, bad
		}
		client := mcp.Implementation{Name: string(name), Version: string(version)}
		if !hmac.Equal([]byte(parts[3]), []byte(m.ownerMAC(parts[0], client))) {
			return mcp.Implementation{}, bad
		}
		return client, nil
	}
	return mcp.Implementation{}, bad
}

// Validate accepts the ids this project's primaries issued. One that names
// its client is its owner's, whichever primary issued it: the clients
// registry learns the name here, before mcp-go handles the request, so the
// request's session carries it (see clients.hooks) as if this server had
// seen the initialize.
func (m *sessionIDs) Validate(id string) (isTerminated bool, err error) {
	client, err := m.parse(id)
	if err != nil {
		return false, err
	}
	if _, ended := m.terminated.Load(id); ended {
		return true, nil
	}
	if client.Name != "" {
		m.clients.resume(id, client)
	}
	return false, nil
}

func (m *sessionIDs) Terminate(id string) (isNotAllowed bool, err error) {
	m.terminated.Store(id, true)
	m.clients.remove(id)
	return false, nil
}

// ResolveSessionIdManager makes sessionIDs mcp-go's resolver: for an
// initialize request (one withInitializingClient marked) it returns a
// manager whose ids name that client, for any other request sessionIDs
// itself. r is nil when mcp-go sweeps idle sessions.
func (m *sessionIDs) ResolveSessionIdManager(r *http.Request) mcpserver.SessionIdManager {
	if r != nil {
		if client, ok := r.Context().Value(initializingKey{}).(mcp.Implementation); ok {
			return ownedSessionIDs{sessionIDs: m, client: client}
		}
	}
	return m
}

// ownedSessionIDs issues the id of an initialize request's session.
type ownedSessionIDs struct {
	*sessionIDs
	client mcp.Implementation
}

func (o ownedSessionIDs) Generate() string { return o.issue(o.client) }

// initializingKey keys the client info of an initialize request in its
// context.
type initializingKey struct{}

// maxInitializeBytes is the largest body read for the client info of an
// initialize request; real ones are a few hundred bytes, and a larger body
// is passed on unread (its session's id then names no client).
const maxInitializeBytes = 64 << 10

// withInitializingClient returns r with the client info of the initialize
// request in body in its context (for ResolveSessionIdManager), and a reader
// of the whole body. Any other request is returned as it is.
func withInitializingClient(r *http.Request, body io.Reader) (*http.Request, io.Reader, error) {
	head, err := io.ReadAll(io.LimitReader(body, maxInitializeBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read the request body: %w", err)
	}
	whole := io.MultiReader(bytes.NewReader(head), body)
	if len(head) > maxInitializeBytes || !bytes.Contains(head, []byte(`"initialize"`)) {
		return r, whole, nil
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			ClientInfo mcp.Implementation `json:"clientInfo"`
		} `json:"params"`
	}
	if err := json.Unmarshal(head, &m); err != nil || m.Method != string(mcp.MethodInitialize) {
		return r, whole, nil // mcp-go answers a malformed request
	}
	return r.WithContext(context.WithValue(r.Context(), initializingKey{}, m.Params.ClientInfo)), whole, nil
}
