package searchtool

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/standards"
)

// otherQuestions are asked the way a person might, in words the standards'
// own question lists do not use; each names the standard that answers it.
var otherQuestions = []struct{ text, file string }{
	{"Should session tokens be kept in localStorage or in a cookie?", "security/authentication-and-sessions.md"},
	{"How long before an idle user is logged out?", "security/authentication-and-sessions.md"},
	{"Do I need to rotate the session id when the user signs in?", "security/authentication-and-sessions.md"},
	{"What bcrypt cost factor should we use?", "security/password-storage-and-cryptography.md"},
	{"Can I reuse a nonce with AES-GCM?", "security/password-storage-and-cryptography.md"},
	{"Where should encryption keys be kept?", "security/password-storage-and-cryptography.md"},
	{"Do forms posting to our backend need anti-forgery tokens?", "security/csrf-protection.md"},
	{"What does the Sec-Fetch-Site header tell the server?", "security/csrf-protection.md"},
	{"Is a logout link vulnerable to cross-site request forgery?", "security/csrf-protection.md"},
	{"How do I safely download an image from a URL the user pasted?", "security/ssrf-prevention.md"},
	{"Can a webhook be used to reach our internal admin service?", "security/ssrf-prevention.md"},
	{"How do I block private IP addresses in an outgoing HTTP client?", "security/ssrf-prevention.md"},
	{"Should GitHub Actions be pinned to a commit hash?", "security/dependency-and-supply-chain.md"},
	{"How do we check our Go modules for known CVEs?", "security/dependency-and-supply-chain.md"},
	{"Why use npm ci instead of npm install in CI?", "security/dependency-and-supply-chain.md"},
	{"How do we avoid installing a typosquatted package?", "security/dependency-and-supply-chain.md"},
	{"Which error code goes with a 429 response?", "project/api-error-responses.md"},
	{"Does adding a column with a default value lock the table in Postgres?", "database/schema-migrations.md"},
	{"Why does my retry loop never catch httpx timeouts?", "failure-modes/retries-with-backoff.md"},
	{"What happens to the debit when the credited account does not exist?", "database/transactions-and-isolation.md"},
}

// TestStandardsFindability asks search_standards every question the shipped
// standards say they answer ("Questions this answers"), and otherQuestions,
// and counts how often the standard itself is among the first three results.
// The goal is 95% for each set; the shares are logged so `go test -v -run
// Findability` reports them.
func TestStandardsFindability(t *testing.T) {
	p := newProject(t)
	type question struct {
		text, file string
		other      bool // from otherQuestions
	}
	var questions []question
	err := fs.WalkDir(assets.FS(), assets.UniversalStandards, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := fs.ReadFile(assets.FS(), name)
		rel := ".agentos/standards/universal/" + strings.TrimPrefix(name, assets.UniversalStandards+"/")
		target := filepath.Join(p.Root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(target), 0o755)
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return err
		}
		body, _ := standards.Parse(rel, data).Content("Questions this answers")
		for _, line := range strings.Split(body, "\n") {
			if q, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
				questions = append(questions, question{q, rel, false})
			}
		}
		return nil
	})
	if err != nil || len(questions) < 100 {
		t.Fatalf("%d questions (%v)", len(questions), err)
	}
	for _, q := range otherQuestions {
		questions = append(questions, question{q.text, ".agentos/standards/universal/" + q.file, true})
	}
	e := startService(t, p, config.Default())
	e.waitReady(t)
	found, asked := map[bool]int{}, map[bool]int{}
	for _, q := range questions {
		asked[q.other]++
		out := e.mustCall(t, "search_standards", map[string]any{"query": q.text, "n_results": 3})
		hit := false
		if out.Results != nil {
			for _, h := range *out.Results {
				hit = hit || h.Path == q.file
			}
		}
		if hit {
			found[q.other]++
		} else {
			t.Logf("not in the top 3: %q (%s)", q.text, path.Base(q.file))
		}
	}
	for _, other := range []bool{false, true} {
		set := "the standards' own questions"
		if other {
			set = "other questions"
		}
		share := float64(found[other]) / float64(asked[other])
		t.Logf("findability, %s: %d of %d (%.1f%%) find their standard in the top 3", set, found[other], asked[other], 100*share)
		if share < 0.95 {
			t.Errorf("findability of %s %.1f%% is below the 95%% goal", set, 100*share)
		}
	}
}
