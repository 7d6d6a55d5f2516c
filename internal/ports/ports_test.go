package ports

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/agentos-dev/agentos/internal/machinekey"
)

// freeRange returns n consecutive ports of which the first is free now.
func freeRange(t *testing.T, n int) (lo, hi int) {
	t.Helper()
	for lo := 20000 + os.Getpid()%20000; lo < 60000; lo += n {
		ok := true
		for p := lo; p < lo+n; p++ {
			ok = ok && Free(p)
		}
		if ok {
			return lo, lo + n - 1
		}
	}
	t.Fatal("no free port range")
	return 0, 0
}

func setup(t *testing.T) string {
	t.Setenv(machinekey.EnvDir, t.TempDir())
	return t.TempDir()
}

func TestChooseIsStableAndDistinctPerProject(t *testing.T) {
	dir := setup(t)
	lo, hi := freeRange(t, 5)
	ctx := context.Background()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.Mkdir(a, 0o755)
	os.Mkdir(b, 0o755)
	pa, err := Choose(ctx, a, lo, hi)
	if err != nil || pa != lo {
		t.Fatalf("a: port %d, err %v; want %d", pa, err, lo)
	}
	pb, err := Choose(ctx, b, lo, hi)
	if err != nil || pb != lo+1 {
		t.Fatalf("b: port %d, err %v; want %d (a recorded %d)", pb, err, lo+1, lo)
	}
	if again, _ := Choose(ctx, a, lo, hi); again != pa {
		t.Errorf("a chose again: %d, want its recorded %d", again, pa)
	}
	// A record whose project folder is gone frees its port.
	os.Remove(a)
	c := filepath.Join(dir, "c")
	os.Mkdir(c, 0o755)
	if pc, _ := Choose(ctx, c, lo, hi); pc != lo {
		t.Errorf("c: port %d, want %d (a's folder is gone)", pc, lo)
	}
	if err := Forget(ctx, b); err != nil {
		t.Fatal(err)
	}
	d := filepath.Join(dir, "d")
	os.Mkdir(d, 0o755)
	if pd, _ := Choose(ctx, d, lo, hi); pd != lo+1 {
		t.Errorf("d: port %d, want %d (b was forgotten)", pd, lo+1)
	}
}

func TestChooseSkipsPortsInUse(t *testing.T) {
	dir := setup(t)
	lo, hi := freeRange(t, 3)
	ln, err := net.Listen("tcp", net.JoinHostPort(Host, strconv.Itoa(lo)))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if p, err := Choose(context.Background(), dir, lo, hi); err != nil || p != lo+1 {
		t.Errorf("port %d, err %v; want %d (%d is in use)", p, err, lo+1, lo)
	}
	if err := Record(context.Background(), t.TempDir(), hi); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	if p, err := Choose(context.Background(), other, lo, hi); err == nil {
		t.Errorf("chose %d though every port is in use or recorded", p)
	}
}

// Installs running at once never record the same port.
func TestChooseConcurrently(t *testing.T) {
	dir := setup(t)
	const n = 8
	lo, hi := freeRange(t, n)
	var wg sync.WaitGroup
	got := make([]int, n)
	for i := range n {
		root := filepath.Join(dir, strconv.Itoa(i))
		os.Mkdir(root, 0o755)
		wg.Go(func() {
			p, err := Choose(context.Background(), root, lo, hi)
			if err != nil {
				t.Error(err)
			}
			got[i] = p
		})
	}
	wg.Wait()
	seen := map[int]bool{}
	for _, p := range got {
		if seen[p] {
			t.Fatalf("port %d chosen twice: %v", p, got)
		}
		seen[p] = true
	}
}

func TestDamagedRecordIsRepaired(t *testing.T) {
	dir := setup(t)
	path, _ := Path()
	os.WriteFile(path, []byte("{not json"), 0o600)
	lo, hi := freeRange(t, 2)
	if _, err := Choose(context.Background(), dir, lo, hi); err != nil {
		t.Fatal(err)
	}
	if r, err := read(path); err != nil || len(r.Projects) != 1 {
		t.Errorf("record = %+v, %v", r, err)
	}
}

// Two installs planned at once are proposed different ports (a proposal
// reserves its port), and a port another project claimed cannot be claimed.
func TestProposalsReserveAndClaimsDoNotCollide(t *testing.T) {
	dir := setup(t)
	lo, hi := freeRange(t, 3)
	ctx := context.Background()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, d := range []string{a, b} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pa, err := Propose(ctx, a, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := Propose(ctx, b, lo, hi)
	if err != nil || pb == pa {
		t.Fatalf("proposals %d and %d (%v): a proposal must reserve its port", pa, pb, err)
	}
	if again, err := Propose(ctx, a, lo, hi); err != nil || again != pa {
		t.Errorf("the same plan made again got %d (%v), want %d", again, err, pa)
	}
	if err := Claim(ctx, a, pa); err != nil {
		t.Fatal(err)
	}
	if err := Claim(ctx, b, pa); err == nil {
		t.Fatal("a second project claimed a claimed port")
	}
	if err := Claim(ctx, b, pb); err != nil {
		t.Errorf("b claiming its own proposal: %v", err)
	}
	if err := Claim(ctx, a, pa); err != nil {
		t.Errorf("claiming one's own port again: %v", err)
	}
}

// A project is never given a port browsers refuse to load pages from (its
// review page opens in one): 5060 and 5061 are in the default range.
func TestChooseSkipsPortsBrowsersRefuse(t *testing.T) {
	dir := setup(t)
	if !Free(5062) {
		t.Skip("5062 is held by another program")
	}
	got, err := Choose(context.Background(), filepath.Join(dir, "p"), 5060, 5062)
	if err != nil || got != 5062 {
		t.Errorf("Choose in 5060-5062 = %d, %v; want 5062", got, err)
	}
	for _, p := range []int{5060, 5061, 6000, 10080} {
		if !BrowserBlocked(p) {
			t.Errorf("%d is not known as a port browsers refuse", p)
		}
	}
	if BrowserBlocked(4242) || BrowserBlocked(5062) {
		t.Error("an ordinary port counted as one browsers refuse")
	}
}

// listenTaking calls Listen and closes what it bound at the end of the test.
func listenTaking(t *testing.T, root string, recorded, lo, hi int) (int, error) {
	t.Helper()
	ln, port, err := Listen(context.Background(), root, recorded, lo, hi)
	if err == nil {
		t.Cleanup(func() { ln.Close() })
	}
	return port, err
}

// A server whose recorded port is busy never falls back to a port another
// project records (its clients would reach this server and report
// "connected"), nor to one proposed to another install; a record whose
// project folder is gone holds nothing.
func TestListenFallbackSkipsOtherProjectsPorts(t *testing.T) {
	dir := setup(t)
	lo, hi := freeRange(t, 5)
	ctx := context.Background()
	a, b, c := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")
	for _, d := range []string{a, b, c} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for root, port := range map[string]int{a: lo, b: lo + 1} {
		if err := Record(ctx, root, port); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Propose(ctx, c, lo+2, lo+2); err != nil {
		t.Fatal(err)
	}
	busy, err := net.Listen("tcp", net.JoinHostPort(Host, strconv.Itoa(lo)))
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()

	if got, err := listenTaking(t, a, lo, lo, hi); err != nil || got != lo+3 {
		t.Fatalf("a's port %d busy: listened on %d (%v), want %d: %d is b's record, %d c's proposal", lo, got, err, lo+3, lo+1, lo+2)
	}
	// With b's folder gone its record holds nothing, and the fallback is b's old port.
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	if got, err := listenTaking(t, a, lo, lo, hi); err != nil || got != lo+1 {
		t.Errorf("b's folder gone: listened on %d (%v), want its old port %d", got, err, lo+1)
	}
}

// Listen takes the recorded port when it is free, even when another
// project records it too (OwnerOf then names that project); with the rest
// of the range busy or another's, it says no port is free.
func TestListenRecordedPortAndNoFreePort(t *testing.T) {
	dir := setup(t)
	lo, hi := freeRange(t, 2)
	ctx := context.Background()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := Record(ctx, b, hi); err != nil {
		t.Fatal(err)
	}
	if got, err := listenTaking(t, a, hi, lo, hi); err != nil || got != hi {
		t.Fatalf("a's free recorded port: listened on %d (%v), want %d", got, err, hi)
	}
	// hi is held now (by a): lo is free, and b records hi, not lo.
	if got, err := listenTaking(t, a, hi, lo, hi); err != nil || got != lo {
		t.Errorf("listened on %d (%v), want %d", got, err, lo)
	}
	if _, err := listenTaking(t, a, hi, lo, hi); !errors.Is(err, ErrNoFreePort) {
		t.Errorf("every port busy: err %v, want ErrNoFreePort", err)
	}
}

// OwnerOf names the other project a port is recorded or proposed for,
// never the project asked about (however its folder is spelled), and
// forgets a project whose folder is gone.
func TestOwnerOf(t *testing.T) {
	dir := setup(t)
	ctx := context.Background()
	a, b, c := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")
	for _, d := range []string{a, b, c} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	lo, _ := freeRange(t, 3)
	if err := Record(ctx, a, lo); err != nil {
		t.Fatal(err)
	}
	if err := Record(ctx, b, lo+1); err != nil {
		t.Fatal(err)
	}
	if _, err := Propose(ctx, c, lo+2, lo+2); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "a-link")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		root string
		port int
		want Owner
	}{
		{a, lo, Owner{Own: true}},
		{link, lo, Owner{Own: true}},
		{a, lo + 1, Owner{Other: b}},
		{b, lo, Owner{Other: a}},
		{a, lo + 2, Owner{Other: c, Proposed: true}},
		{a, lo + 3, Owner{}},
	} {
		if got, err := OwnerOf(ctx, tc.root, tc.port); err != nil || got != tc.want {
			t.Errorf("OwnerOf(%s, %d) = %+v, %v; want %+v", tc.root, tc.port, got, err, tc.want)
		}
	}
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	if got, err := OwnerOf(ctx, a, lo+1); err != nil || got != (Owner{}) {
		t.Errorf("b's folder gone: OwnerOf = %+v, %v; want nobody", got, err)
	}
}
