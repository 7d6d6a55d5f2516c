package models

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agentos-dev/agentos/search/embed/model2vec"
	"github.com/agentos-dev/agentos/search/embed/model2vec/m2vtest"
)

// tinyModel is a generated model2vec model: its files by name.
func tinyModel(t *testing.T, scale float32) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	vocab := []string{"[PAD]", "[UNK]", "search", "code", "##s"}
	rows := [][]float32{{0, 0}, {0, 0}, {scale, 0}, {0, scale}, {1, 1}}
	if err := m2vtest.Write(dir, m2vtest.WordPiece(vocab),
		map[string]m2vtest.Tensor{"embeddings": m2vtest.Matrix("F16", rows)}, true); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range Files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = b
	}
	return files
}

func sum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// hub is a fake Hugging Face hub serving one model. Large files behave as on
// the hub: the answer is a redirect carrying X-Linked-Etag (the SHA-256) and
// X-Linked-Size, and the storage answers with an unrelated ETag.
type hub struct {
	*httptest.Server
	name     string
	files    map[string][]byte
	linked   map[string]string // X-Linked-Etag to announce instead of the real digest
	missing  map[string]bool   // answer 404
	cut      map[string]bool   // break the body off half-way
	mu       sync.Mutex
	requests int
}

func newHub(t *testing.T, name string, files map[string][]byte) *hub {
	h := &hub{name: name, files: files, linked: map[string]string{}, missing: map[string]bool{}, cut: map[string]bool{}}
	h.Server = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.Close)
	return h
}

func (h *hub) serve(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.requests++
	h.mu.Unlock()
	if file, ok := strings.CutPrefix(r.URL.Path, "/storage/"); ok {
		data := h.files[file]
		w.Header().Set("ETag", `"storage-etag-1"`)
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		if h.cut[file] {
			w.Write(data[:len(data)/2])
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}
		w.Write(data)
		return
	}
	file, ok := strings.CutPrefix(r.URL.Path, "/"+h.name+"/resolve/main/")
	data, exists := h.files[file]
	if !ok || !exists || h.missing[file] {
		w.Header().Set("X-Error-Code", "EntryNotFound")
		http.Error(w, "Entry not found", http.StatusNotFound)
		return
	}
	if file == model2vec.WeightsFile { // stored with LFS
		etag := h.linked[file]
		if etag == "" {
			etag = sum(data)
		}
		w.Header().Set("X-Linked-Etag", `"`+etag+`"`)
		w.Header().Set("X-Linked-Size", strconv.Itoa(len(data)))
		http.Redirect(w, r, "/storage/"+file, http.StatusFound)
		return
	}
	w.Header().Set("ETag", `"0123456789abcdef0123456789abcdef01234567"`) // a git blob id: not a SHA-256
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	if h.cut[file] {
		w.Write(data[:len(data)/2])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}
	w.Write(data)
}

// leftovers lists what is under root.
func leftovers(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if p != root {
			out = append(out, strings.TrimPrefix(p, root))
		}
		return nil
	})
	return out
}

const name = "minishlab/potion-tiny"

func TestPull(t *testing.T) {
	files := tinyModel(t, 2)
	h := newHub(t, name, files)
	root := filepath.Join(t.TempDir(), "models")
	var events []Progress
	res, err := Pull(context.Background(), name, Options{Dir: root, Endpoint: h.URL,
		SHA256:   map[string]string{model2vec.TokenizerFile: sum(files[model2vec.TokenizerFile])},
		Progress: func(p Progress) { events = append(events, p) }})
	if err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(root, "minishlab", "potion-tiny")
	if res.Dir != dest || res.Already || res.Info.Dim != 2 || res.Info.Rows != 5 || len(res.Files) != 3 {
		t.Fatalf("%+v", res)
	}
	verified := map[string]bool{}
	for _, f := range res.Files {
		verified[f.Name] = f.Verified
		if f.SHA256 != sum(files[f.Name]) || f.Size != int64(len(files[f.Name])) {
			t.Errorf("%s: %+v", f.Name, f)
		}
	}
	// The weights by the hub's X-Linked-Etag, the tokenizer by --sha256;
	// config.json's ETag is a git blob id, which is not checked.
	if !verified[model2vec.WeightsFile] || !verified[model2vec.TokenizerFile] || verified[model2vec.ConfigFile] {
		t.Errorf("verified: %v", verified)
	}
	for _, f := range Files {
		got, err := os.ReadFile(filepath.Join(dest, f))
		if err != nil || !bytes.Equal(got, files[f]) {
			t.Errorf("%s: %v", f, err)
		}
	}
	if got := leftovers(t, root); len(got) != 5 { // minishlab, potion-tiny and its three files
		t.Errorf("left in the models folder: %v", got)
	}
	m, err := model2vec.Load(dest)
	if err != nil {
		t.Fatal(err)
	}
	if v := m.Vector("search codes"); v[0] < 0.5 || v[1] < 0.5 {
		t.Errorf("embedding %v", v)
	}
	last := events[len(events)-1]
	if last.File != model2vec.WeightsFile || !last.Finished || !last.Verified || last.Done != last.Total {
		t.Errorf("last progress %+v", last)
	}

	// Listed.
	list, err := List(root)
	if err != nil || len(list) != 1 || list[0].Name != name || list[0].Info.Dim != 2 || list[0].Err != "" || list[0].Size == 0 {
		t.Errorf("list: %+v %v", list, err)
	}

	// Pulled again: nothing is fetched.
	before := h.requests
	res, err = Pull(context.Background(), name, Options{Dir: root, Endpoint: h.URL})
	if err != nil || !res.Already || h.requests != before {
		t.Errorf("second pull: %+v %v, %d requests", res, err, h.requests-before)
	}

	// Forced, with a changed model: replaced.
	h.files = tinyModel(t, 3)
	if _, err = Pull(context.Background(), name, Options{Dir: root, Endpoint: h.URL, Force: true}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dest, model2vec.WeightsFile))
	if !bytes.Equal(got, h.files[model2vec.WeightsFile]) {
		t.Error("forced pull did not replace the model")
	}
	if got := leftovers(t, root); len(got) != 5 {
		t.Errorf("left in the models folder: %v", got)
	}
}

func TestPullFailuresLeaveNothing(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(h *hub)
		opt   Options
		want  string
	}{
		{"hub checksum mismatch", func(h *hub) { h.linked[model2vec.WeightsFile] = strings.Repeat("ab", 32) }, Options{},
			"checksum mismatch for model.safetensors: its SHA-256 is "},
		{"flag checksum mismatch", func(h *hub) {}, Options{SHA256: map[string]string{model2vec.ConfigFile: strings.Repeat("0", 64)}},
			"--sha256 expects 0000"},
		{"not found", func(h *hub) { h.missing[model2vec.TokenizerFile] = true }, Options{},
			"has no tokenizer.json at"},
		{"interrupted body", func(h *hub) { h.cut[model2vec.WeightsFile] = true }, Options{},
			"download of model.safetensors broke off"},
		{"interrupted small file", func(h *hub) { h.cut[model2vec.ConfigFile] = true }, Options{},
			"download of config.json broke off"},
		{"not a model2vec model", func(h *hub) { h.files[model2vec.TokenizerFile] = []byte(`{"model":{"type":"BPE"}}`) }, Options{},
			`not a model2vec model agentos can use: model2vec: ` /* … */},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHub(t, name, tinyModel(t, 1))
			c.setup(h)
			root := t.TempDir()
			opt := c.opt
			opt.Dir, opt.Endpoint = root, h.URL
			_, err := Pull(context.Background(), name, opt)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
			if got := leftovers(t, root); len(got) > 0 {
				t.Errorf("left behind: %v", got)
			}
		})
	}
}

func TestFailedPullKeepsTheOldModel(t *testing.T) {
	files := tinyModel(t, 2)
	h := newHub(t, name, files)
	root := t.TempDir()
	if _, err := Pull(context.Background(), name, Options{Dir: root, Endpoint: h.URL}); err != nil {
		t.Fatal(err)
	}
	h.files = tinyModel(t, 3)
	h.cut[model2vec.WeightsFile] = true
	if _, err := Pull(context.Background(), name, Options{Dir: root, Endpoint: h.URL, Force: true}); err == nil {
		t.Fatal("interrupted pull succeeded")
	}
	got, _ := os.ReadFile(filepath.Join(root, "minishlab", "potion-tiny", model2vec.WeightsFile))
	if !bytes.Equal(got, files[model2vec.WeightsFile]) {
		t.Error("the old model was damaged")
	}
	if got := leftovers(t, root); len(got) != 5 {
		t.Errorf("left in the models folder: %v", got)
	}
}

func TestPullWithoutNetwork(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	root := t.TempDir()
	_, err := Pull(context.Background(), name, Options{Dir: root, Endpoint: srv.URL})
	if err == nil || !strings.Contains(err.Error(), "cannot reach "+srv.URL) || !strings.Contains(err.Error(), "check the network connection") {
		t.Errorf("got %v", err)
	}
	if got := leftovers(t, root); len(got) > 0 {
		t.Errorf("left behind: %v", got)
	}
}

func TestPullRejectsBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		opt  Options
		want string
	}{
		{"potion-base-8M", Options{}, "expected OWNER/NAME"},
		{"a/../b", Options{}, "expected OWNER/NAME"},
		{"a/b/c", Options{}, "expected OWNER/NAME"},
		{name, Options{SHA256: map[string]string{"weights.bin": strings.Repeat("0", 64)}}, `"weights.bin", which is not one of the model's files`},
		{name, Options{SHA256: map[string]string{"config.json": "abc"}}, "not 64 hexadecimal digits"},
		{name, Options{Endpoint: "huggingface.co"}, "is not an http(s) URL"},
	} {
		c.opt.Dir = t.TempDir()
		if _, err := Pull(context.Background(), c.name, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: %v", c.name, c.opt, err)
		}
	}
}

func TestListReportsBrokenModels(t *testing.T) {
	root := t.TempDir()
	if list, err := List(filepath.Join(root, "none")); err != nil || len(list) != 0 {
		t.Errorf("missing folder: %v %v", list, err)
	}
	os.MkdirAll(filepath.Join(root, "a", "half"), 0o755)
	os.WriteFile(filepath.Join(root, "a", "half", "config.json"), []byte("{}"), 0o644)
	os.MkdirAll(filepath.Join(root, "a", ".half.partial-1"), 0o755)
	list, err := List(root)
	if err != nil || len(list) != 1 || !strings.Contains(list[0].Err, "missing tokenizer.json, model.safetensors") {
		t.Errorf("%+v %v", list, err)
	}
}

func TestDir(t *testing.T) {
	t.Setenv(EnvDir, "/somewhere/models")
	if d, err := Dir(); err != nil || d != "/somewhere/models" {
		t.Errorf("%q %v", d, err)
	}
}

func TestProgressPrinter(t *testing.T) {
	var plain, tty bytes.Buffer
	for _, w := range []struct {
		buf *bytes.Buffer
		tty bool
	}{{&plain, false}, {&tty, true}} {
		p := ProgressPrinter(w.buf, w.tty)
		p(Progress{File: "model.safetensors", Total: 2_000_000})
		p(Progress{File: "model.safetensors", Done: 1_000_000, Total: 2_000_000})
		p(Progress{File: "model.safetensors", Done: 2_000_000, Total: 2_000_000, Finished: true, Verified: true})
		p(Progress{File: "config.json", Done: 120, Total: -1, Finished: true})
	}
	if want := "model.safetensors     2.0 MB  sha256 verified\nconfig.json            120 B  no checksum to verify\n"; plain.String() != want {
		t.Errorf("plain:\n%q\nwant\n%q", plain.String(), want)
	}
	s := tty.String()
	if !strings.Contains(s, "\rmodel.safetensors  [........................]") ||
		!strings.Contains(s, "[########################]    2.0 MB / 2.0 MB    100%  sha256 verified\x1b[K\n") {
		t.Errorf("tty: %q", s)
	}
}
