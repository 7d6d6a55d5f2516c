// Package ports owns the choice of a project's HTTP port and the machine-wide
// record of the ports projects have chosen: ports.json in the user's agentos
// config folder, read and written under a lock, so two projects installed on
// one machine never record the same port (and their agents' HTTP entries
// never point at each other's server).
package ports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentos-dev/agentos/internal/project"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/gofrs/flock"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/machinekey"
)

// Host is the loopback address agentos servers listen on, where a port is
// checked to be free.
const Host = "127.0.0.1"

// record is the content of ports.json.
type record struct {
	Version  int            `json:"version"`
	Projects map[string]int `json:"projects"` // absolute project root -> port
	// Proposed holds the ports proposed to installs not yet applied, so
	// two installs planned at once are proposed different ports. A
	// proposal lapses after proposalLife (a dry run, or a plan never
	// applied).
	Proposed map[string]proposal `json:"proposed,omitempty"`
}

// proposal is a port proposed to a project's install, and when.
type proposal struct {
	Port int       `json:"port"`
	At   time.Time `json:"at"`
}

// proposalLife is how long a proposed port stays reserved.
const proposalLife = 10 * time.Minute

// Path is where the record lives: ports.json beside the machine key
// ($AGENTOS_CONFIG_HOME, else agentos/ in the user's config folder).
func Path() (string, error) {
	key, err := machinekey.Path()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(key), "ports.json"), nil
}

// Choose returns the port of the project at root: the one recorded for it
// if it lies in lo..hi, else the first port of lo..hi that no other project
// records and nothing listens on now, which it records. Records of projects
// whose folder is gone are dropped on the way.
func Choose(ctx context.Context, root string, lo, hi int) (int, error) {
	var chosen int
	err := update(ctx, func(r *record) error {
		var err error
		if chosen, err = pick(r, root, lo, hi); err == nil {
			r.Projects[root] = chosen
		}
		return err
	})
	return chosen, err
}

// Propose returns the port Choose would return now, and reserves it for a
// while rather than recording it: what an install plans (and shows in a dry
// run) before it claims the port with Claim.
func Propose(ctx context.Context, root string, lo, hi int) (int, error) {
	var chosen int
	err := update(ctx, func(r *record) error {
		var err error
		if chosen, err = pick(r, root, lo, hi); err == nil {
			r.Proposed[root] = proposal{Port: chosen, At: time.Now()}
		}
		return err
	})
	return chosen, err
}

// pick is the one rule for a project's port: its recorded one when in
// range, else the first free port of the range no other project records
// and browsers load pages from.
func pick(r *record, root string, lo, hi int) (int, error) {
	if p, ok := r.Projects[root]; ok && p >= lo && p <= hi {
		return p, nil
	}
	if p, ok := r.Proposed[root]; ok && p.Port >= lo && p.Port <= hi && Free(p.Port) {
		return p.Port, nil // the same plan made again
	}
	taken := r.others(root)
	for p := lo; p <= hi; p++ {
		if taken[p] == "" && !BrowserBlocked(p) && Free(p) {
			return p, nil
		}
	}
	return 0, fmt.Errorf("no port of %d-%d is free and unrecorded by another project; widen server.port_range or uninstall agentos from projects you no longer use", lo, hi)
}

// Claim records port for the project at root, as Record does, unless
// another project recorded it since it was proposed (two installs at once):
// then it records nothing and says so.
func Claim(ctx context.Context, root string, port int) error {
	return update(ctx, func(r *record) error {
		for other, p := range r.Projects {
			if p == port && other != root {
				return fmt.Errorf("port %d was just recorded by %s, installed at the same time; run the install again", port, other)
			}
		}
		r.Projects[root] = port
		delete(r.Proposed, root)
		return nil
	})
}

// Record notes that the project at root uses port (one its config already
// names), so no other project chooses it.
func Record(ctx context.Context, root string, port int) error {
	return update(ctx, func(r *record) error {
		r.Projects[root] = port
		return nil
	})
}

// Forget drops the record of the project at root (it was uninstalled).
func Forget(ctx context.Context, root string) error {
	return update(ctx, func(r *record) error {
		delete(r.Projects, root)
		delete(r.Proposed, root)
		return nil
	})
}

// Owner is whom the record gives a port, as seen from one project.
type Owner struct {
	// Other is the root of another project whose folder still exists that
	// records the port, or to whose install it is proposed; "" when none.
	Other string
	// Proposed says Other's claim is a proposal of an install not yet
	// applied, not a record.
	Proposed bool
	// Own says the record gives the port to the project asked about.
	Own bool
}

// OwnerOf says whom the record gives port, as seen from the project at
// root: so a server that finds its port busy, and doctor, can name the
// project whose address it is.
func OwnerOf(ctx context.Context, root string, port int) (Owner, error) {
	r, err := load(ctx)
	if err != nil {
		return Owner{}, fmt.Errorf("read the record of projects' ports: %w", err)
	}
	var o Owner
	if other := r.others(root)[port]; other != "" {
		o.Other, o.Proposed = other, r.Projects[other] != port
	}
	for p, rp := range r.Projects {
		if rp == port && project.SameFolder(p, root) {
			o.Own = true
		}
	}
	return o, nil
}

// ErrNoFreePort is what Listen returns, wrapped, when no port of the range
// may be taken.
var ErrNoFreePort = errors.New("no port is free")

// Listen binds the port the project at root serves HTTP on, at Host: the
// recorded one when it is free, else the next port of lo..hi after it
// (wrapping round to lo) that is free, that browsers load pages from
// (BrowserBlocked), and that the record gives no other project (recorded,
// or proposed to an install) whose folder still exists; with no recorded
// port (0), the first such port of lo..hi.
//
// A fallback is never another project's port: that project's HTTP clients
// know its server only by the port, so they would reach this project's
// server instead, and report "connected". The recorded port itself is
// taken when free even if the record gives it to another project: it is
// this project's own statement of its address (the record may be stale, or
// the config copied from another project's); the caller says whose it is
// (OwnerOf), and doctor how to move one of the two.
func Listen(ctx context.Context, root string, recorded, lo, hi int) (net.Listener, int, error) {
	if recorded >= lo && recorded <= hi && !BrowserBlocked(recorded) {
		if ln, err := listenOn(ctx, recorded); err == nil {
			return ln, recorded, nil
		}
	}
	r, err := load(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("choose a port other projects have not recorded: %w", err)
	}
	taken := r.others(root)
	first := recorded
	if first < lo || first > hi {
		first = lo
	}
	for i := range hi - lo + 1 {
		port := lo + (first-lo+i)%(hi-lo+1)
		if port == recorded || taken[port] != "" || BrowserBlocked(port) {
			continue
		}
		ln, err := listenOn(ctx, port)
		if err == nil {
			return ln, port, nil
		}
		if ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
	}
	return nil, 0, fmt.Errorf("%w in %d-%d on %s that no other project records", ErrNoFreePort, lo, hi, Host)
}

// listenOn binds port at Host.
func listenOn(ctx context.Context, port int) (net.Listener, error) {
	var lc net.ListenConfig
	return lc.Listen(ctx, "tcp", net.JoinHostPort(Host, strconv.Itoa(port)))
}

// BrowserBlocked reports whether browsers refuse to load pages from port:
// the Fetch standard's "bad ports" (SMTP, IRC, SIP, X11 and the like),
// which Chrome, Firefox and Safari block (net::ERR_UNSAFE_PORT). A project's
// server serves a page a person opens (its review page), so it never takes
// one: the default range holds two, 5060 and 5061.
func BrowserBlocked(port int) bool { return browserBlocked[port] }

var browserBlocked = func() map[int]bool {
	m := map[int]bool{}
	for _, p := range []int{0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95,
		101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
		512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719,
		1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697,
		10080} {
		m[p] = true
	}
	return m
}()

// Free reports whether nothing listens on port at Host.
func Free(port int) bool {
	ln, err := net.Listen("tcp", net.JoinHostPort(Host, strconv.Itoa(port)))
	if err != nil {
		return false
	}
	ln.Close()
	return true
}

// update reads the record under the lock, lets change edit it, and writes it
// back atomically. The lock is a file beside the record, so installs in two
// terminals at once see each other's choice.
func update(ctx context.Context, change func(*record) error) error {
	path, err := Path()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	lock := flock.New(path + ".lock")
	ctx, cancel := context.WithTimeout(ctx, lockWait)
	defer cancel()
	ok, err := lock.TryLockContext(ctx, 20*time.Millisecond)
	if err != nil || !ok {
		return fmt.Errorf("lock %s (another agentos install may be stuck; try again): %w", path, errors.Join(err, ctx.Err()))
	}
	defer lock.Unlock()

	r, err := read(path)
	if err != nil {
		return err
	}
	r.prune()
	if err := change(&r); err != nil {
		return err
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return atomicfile.WriteFile(path, append(data, '\n'), 0o600)
}

// prune drops what no longer holds a port: records of projects whose
// folder is gone and proposals that lapsed.
func (r *record) prune() {
	for root := range r.Projects {
		if _, err := os.Stat(root); errors.Is(err, os.ErrNotExist) {
			delete(r.Projects, root)
		}
	}
	if r.Proposed == nil {
		r.Proposed = map[string]proposal{}
	}
	for root, p := range r.Proposed {
		if time.Since(p.At) > proposalLife {
			delete(r.Proposed, root)
		}
	}
}

// others maps each port the record gives a project other than the one at
// root (recorded for it, or proposed to its install) to that project's
// root. It is the one rule of which ports are another project's, that both
// choosing a port (pick) and falling back from a busy one (Listen) keep.
// Another spelling of root's own folder (a symlink) is root, not another.
func (r *record) others(root string) map[int]string {
	taken := map[int]string{}
	for other, p := range r.Proposed {
		if !project.SameFolder(other, root) {
			taken[p.Port] = other
		}
	}
	for other, p := range r.Projects { // a record outranks a proposal
		if !project.SameFolder(other, root) {
			taken[p] = other
		}
	}
	return taken
}

// load reads the record as it stands, pruned, without taking the lock: a
// server starting reads it, and must neither wait behind a stuck install
// nor write the file. The file is replaced atomically, so a read sees one
// whole version of it.
func load(ctx context.Context) (record, error) {
	if err := ctx.Err(); err != nil {
		return record{}, err
	}
	path, err := Path()
	if err != nil {
		return record{}, err
	}
	r, err := read(path)
	if err != nil {
		return record{}, err
	}
	r.prune()
	return r, nil
}

// lockWait bounds the wait for another process's turn at the record.
const lockWait = 10 * time.Second

// read loads the record; a missing file is an empty record, and so is a
// damaged one (it only steers choices, and the next write repairs it).
func read(path string) (record, error) {
	r := record{Version: 1, Projects: map[string]int{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("read %s: %w", path, err)
	}
	if json.Unmarshal(data, &r) != nil || r.Projects == nil {
		return record{Version: 1, Projects: map[string]int{}}, nil
	}
	return r, nil
}
