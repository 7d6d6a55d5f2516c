package doccheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRepositoryLinks checks every relative link of README.md and docs/.
func TestRepositoryLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("found only %v: README.md and docs/ are the documentation", files)
	}
	problems, err := Check(root, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s", p)
	}
	// The check found links at all: README points into docs/.
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(Links("README.md", string(data))); n < 5 {
		t.Errorf("README.md has %d links found; the link parser misses them", n)
	}
}

// GitHub's anchors for headings, as github.com renders them.
func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"The embedder's key":                   "the-embedders-key",
		"What svc_workflow answers carry":      "what-svc_workflow-answers-carry",
		"What agents may read and change":      "what-agents-may-read-and-change",
		"The test command":                     "the-test-command",
		"`agentos upgrade`: keep your edits":   "agentos-upgrade-keep-your-edits",
		"Install, then open the agent (1 min)": "install-then-open-the-agent-1-min",
		"Search — hybrid ranking":              "search--hybrid-ranking",
		"[Links](x.md) in a heading":           "links-in-a-heading",
		"Über Ärger":                           "über-ärger",
		"C++ & Go / 2.0":                       "c--go--20",
	} {
		if got := Slug(heading); got != want {
			t.Errorf("Slug(%q) = %q, want %q", heading, got, want)
		}
	}
}

func TestAnchors(t *testing.T) {
	doc := "# Title\n\n## Usage\n\n```sh\n# not a heading\n```\n\n## Usage\n\n### Usage ###\n\n<a id=\"custom\"></a>\n~~~\n## fenced\n~~~\n"
	got := Anchors(doc)
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"custom", "title", "usage", "usage-1", "usage-2"}
	if !slices.Equal(keys, want) {
		t.Errorf("anchors %v, want %v", keys, want)
	}
}

func TestLinks(t *testing.T) {
	doc := strings.Join([]string{
		"See [a](a.md), ![img](img/x.png \"title\") and [b](b.md#part).", // 1
		"A code span `[not](link.md)` is not a link.",                    // 2
		"```",            // 3
		"[nor](this.md)", // 4
		"```",            // 5
		"[ref]: ref.md",  // 6
		"[nested [brackets]](n.md) and [web](https://example.com)", // 7
		"    - [indented](deep.md)",                                // 8
	}, "\n")
	var got []string
	for _, l := range Links("f.md", doc) {
		got = append(got, l.Target+"@"+string(rune('0'+l.Line)))
	}
	want := []string{"a.md@1", "img/x.png@1", "b.md#part@1", "ref.md@6", "n.md@7", "https://example.com@7", "deep.md@8"}
	if !slices.Equal(got, want) {
		t.Errorf("links %v, want %v", got, want)
	}
}

// TestCheckFindsBrokenLinks: each kind of broken link is reported, and good
// ones are not.
func TestCheckFindsBrokenLinks(t *testing.T) {
	root := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", "# Top\n\n[ok](docs/a.md#the-part) [dir](docs) [self](#top) [web](https://x.invalid/none)\n"+
		"[missing](docs/none.md) [bad anchor](docs/a.md#nothing) [bad self](#nowhere) [out](../outside.md) [abs](/docs/a.md)\n")
	write("docs/a.md", "# A\n\n## The part\n\n[back](../README.md#top) [up](../README.md#gone)\n")
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(files, []string{"README.md", "docs/a.md"}) {
		t.Fatalf("files %v", files)
	}
	problems, err := Check(root, files)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.Target)
	}
	want := []string{"docs/none.md", "docs/a.md#nothing", "#nowhere", "../outside.md", "/docs/a.md", "../README.md#gone"}
	if !slices.Equal(got, want) {
		t.Errorf("problems %v, want %v", problems, want)
	}
}
