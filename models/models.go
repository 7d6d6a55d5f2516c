// Package models owns the local store of static embedding models: it
// downloads model2vec models from the Hugging Face hub (Pull) into a models
// folder, one directory per model (OWNER/NAME), and lists what is there
// (List).
//
// A pull is all or nothing: the files are downloaded into a hidden
// temporary directory next to the destination, each is checked against the
// SHA-256 the hub announces for it (X-Linked-Etag, or an ETag that is a
// SHA-256) and against any digest the caller gives, the model is loaded
// once to prove it is usable, and only then is the directory renamed into
// place. On any failure the temporary directory is removed; an existing
// model is replaced only by a complete, verified one.
package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/agentos-dev/agentos/search/embed/model2vec"
)

// DefaultEndpoint is the Hugging Face hub.
const DefaultEndpoint = "https://huggingface.co"

// Environment variables that change the defaults.
const (
	EnvDir      = "AGENTOS_MODELS_DIR" // the models folder
	EnvEndpoint = "HF_ENDPOINT"        // the hub (a mirror, or a test server)
	EnvToken    = "HF_TOKEN"           // a token for private or gated models
)

// Files are the files of a model2vec model, fetched in this order.
var Files = []string{model2vec.ConfigFile, model2vec.TokenizerFile, model2vec.WeightsFile}

// Dir is the default models folder: $AGENTOS_MODELS_DIR, or agentos/models
// in the user's cache directory (~/.cache/agentos/models on Linux).
func Dir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no models folder: %v; set %s", err, EnvDir)
	}
	return filepath.Join(c, "agentos", "models"), nil
}

var namePart = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// CheckName accepts a hub model name, OWNER/NAME.
func CheckName(name string) error {
	owner, repo, ok := strings.Cut(name, "/")
	if !ok || !namePart.MatchString(owner) || !namePart.MatchString(repo) || strings.Contains(name, "..") {
		return fmt.Errorf("%q is not a model name: expected OWNER/NAME, such as minishlab/potion-base-8M", name)
	}
	return nil
}

// Path is where model name lives in the models folder root.
func Path(root, name string) (string, error) {
	if err := CheckName(name); err != nil {
		return "", err
	}
	return filepath.Join(root, filepath.FromSlash(name)), nil
}

// Options tune Pull. Zero fields take defaults.
type Options struct {
	Dir      string            // models folder (default Dir())
	Endpoint string            // hub base URL (default $HF_ENDPOINT, else DefaultEndpoint)
	Revision string            // branch, tag or commit (default "main")
	Token    string            // bearer token (default $HF_TOKEN)
	SHA256   map[string]string // expected SHA-256 (hex) by file name
	Force    bool              // download even if the model is already there
	Client   *http.Client      // default http.DefaultClient
	Progress func(Progress)    // called as each file downloads
}

// Progress reports a file's download.
type Progress struct {
	File     string
	Done     int64 // bytes so far
	Total    int64 // -1 when unknown
	Finished bool  // the file is complete and verified
	Verified bool  // on Finished: its SHA-256 was checked
}

// Result says what Pull did.
type Result struct {
	Name     string
	Dir      string         // the model's directory
	Endpoint string         // where it came from
	Already  bool           // it was already there: nothing was downloaded
	Files    []File         // the files downloaded
	Info     model2vec.Info // its shape
}

// File is one downloaded file.
type File struct {
	Name     string
	Size     int64
	SHA256   string
	Verified bool // the digest matched one announced by the hub or given in Options.SHA256
}

// Pull downloads model name (OWNER/NAME) into the models folder.
func Pull(ctx context.Context, name string, opt Options) (res *Result, err error) {
	if opt.Dir == "" {
		if opt.Dir, err = Dir(); err != nil {
			return nil, err
		}
	}
	dest, err := Path(opt.Dir, name)
	if err != nil {
		return nil, err
	}
	if opt.Endpoint == "" {
		opt.Endpoint = os.Getenv(EnvEndpoint)
	}
	if opt.Endpoint == "" {
		opt.Endpoint = DefaultEndpoint
	}
	opt.Endpoint = strings.TrimRight(opt.Endpoint, "/")
	if u, perr := url.Parse(opt.Endpoint); perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("endpoint %q is not an http(s) URL", opt.Endpoint)
	}
	if opt.Revision == "" {
		opt.Revision = "main"
	}
	if opt.Token == "" {
		opt.Token = os.Getenv(EnvToken)
	}
	if opt.Client == nil {
		opt.Client = http.DefaultClient
	}
	for f, sum := range opt.SHA256 {
		if !slices.Contains(Files, f) {
			return nil, fmt.Errorf("--sha256 names %q, which is not one of the model's files (%s)", f, strings.Join(Files, ", "))
		}
		if !isSHA256(sum) {
			return nil, fmt.Errorf("--sha256 for %s: %q is not 64 hexadecimal digits", f, sum)
		}
	}
	res = &Result{Name: name, Dir: dest, Endpoint: opt.Endpoint}
	if !opt.Force && complete(dest) {
		if res.Info, err = model2vec.Inspect(dest); err == nil {
			res.Already = true
			return res, nil
		}
	}

	parent := filepath.Dir(dest)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("create the models folder: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dest)+".partial-")
	if err != nil {
		return nil, fmt.Errorf("create a download folder: %w", err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
			os.Remove(parent) // only if empty: a folder this pull created
		}
	}()
	for _, f := range Files {
		file, err := download(ctx, name, f, filepath.Join(tmp, f), opt)
		if err != nil {
			return nil, err
		}
		res.Files = append(res.Files, file)
	}
	if _, err := model2vec.Load(tmp); err != nil {
		return nil, fmt.Errorf("downloaded %s, but it is not a model2vec model agentos can use: %v", name, err)
	}
	if res.Info, err = model2vec.Inspect(tmp); err != nil {
		return nil, err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, err
	}
	if err := place(tmp, dest); err != nil {
		return nil, err
	}
	return res, nil
}

// complete says whether dir holds every file of a model.
func complete(dir string) bool {
	for _, f := range Files {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || !st.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// place renames the finished directory tmp to dest, replacing any old one.
func place(tmp, dest string) error {
	old := ""
	if _, err := os.Stat(dest); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dest, old); err != nil {
			return fmt.Errorf("replace %s: %w", dest, err)
		}
	}
	if err := os.Rename(tmp, dest); err != nil {
		if old != "" {
			os.Rename(old, dest)
		}
		return fmt.Errorf("move the model into %s: %w", dest, err)
	}
	if old != "" {
		os.RemoveAll(old)
	}
	if d, err := os.Open(filepath.Dir(dest)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// download fetches one file of the model to path and verifies it.
func download(ctx context.Context, name, file, path string, opt Options) (File, error) {
	u := fmt.Sprintf("%s/%s/resolve/%s/%s", opt.Endpoint, name, url.PathEscape(opt.Revision), file)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return File{}, err
	}
	if opt.Token != "" {
		req.Header.Set("Authorization", "Bearer "+opt.Token)
	}
	// The hub answers with a redirect to its storage for large files; the
	// digest is in the hub's own answer, so keep the first response's headers.
	var first http.Header
	client := *opt.Client
	client.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if first == nil && r.Response != nil {
			first = r.Response.Header
		}
		if len(via) >= 10 {
			return errors.New("too many redirects")
		}
		return nil
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return File{}, fmt.Errorf("download of %s stopped: %w", file, ctx.Err())
		}
		if cause := netCause(err); cause != nil {
			return File{}, fmt.Errorf("cannot reach %s: %v; check the network connection (or set %s to a mirror)",
				opt.Endpoint, cause, EnvEndpoint)
		}
		return File{}, fmt.Errorf("download of %s failed: %v", file, err)
	}
	defer resp.Body.Close()
	if first == nil {
		first = resp.Header
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return File{}, fmt.Errorf("%s has no %s at %s (HTTP 404): check the model name; agentos needs a model2vec model such as minishlab/potion-base-8M", name, file, opt.Endpoint)
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return File{}, fmt.Errorf("%s refused %s/%s (HTTP %d): the model is private or gated, or it does not exist; for a private model set %s", opt.Endpoint, name, file, resp.StatusCode, EnvToken)
	case resp.StatusCode != http.StatusOK:
		return File{}, fmt.Errorf("%s answered %s for %s/%s", opt.Endpoint, resp.Status, name, file)
	}

	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return File{}, err
	}
	defer f.Close() // after the explicit Close below, a no-op
	h := sha256.New()
	pw := &progressWriter{p: Progress{File: file, Total: resp.ContentLength}, report: opt.Progress}
	pw.emit()
	n, err := io.Copy(io.MultiWriter(f, h, pw), resp.Body)
	if err != nil {
		if ctx.Err() != nil {
			return File{}, fmt.Errorf("download of %s stopped: %w", file, ctx.Err())
		}
		return File{}, fmt.Errorf("download of %s broke off after %d bytes: %v", file, n, err)
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return File{}, fmt.Errorf("download of %s broke off: %d of %d bytes", file, n, resp.ContentLength)
	}
	if err := f.Sync(); err != nil {
		return File{}, err
	}
	if err := f.Close(); err != nil {
		return File{}, err
	}

	got := hex.EncodeToString(h.Sum(nil))
	out := File{Name: file, Size: n, SHA256: got}
	if size := first.Get("X-Linked-Size"); size != "" && size != fmt.Sprint(n) {
		return File{}, fmt.Errorf("%s is %d bytes, but the hub says %s", file, n, size)
	}
	for _, want := range []struct{ sum, from string }{
		{hubDigest(first), "the hub announced"},
		{strings.ToLower(opt.SHA256[file]), "--sha256 expects"},
	} {
		if want.sum == "" {
			continue
		}
		if want.sum != got {
			return File{}, fmt.Errorf("checksum mismatch for %s: its SHA-256 is %s, %s %s; the download was discarded", file, got, want.from, want.sum)
		}
		out.Verified = true
	}
	pw.p.Finished, pw.p.Verified = true, out.Verified
	pw.emit()
	return out, nil
}

// hubDigest is the SHA-256 the hub gives for a file stored with Git LFS, or "".
func hubDigest(h http.Header) string {
	for _, k := range []string{"X-Linked-Etag", "ETag"} {
		v := strings.TrimPrefix(h.Get(k), "W/")
		v = strings.ToLower(strings.Trim(v, `"`))
		if isSHA256(v) {
			return v
		}
	}
	return ""
}

func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// netCause is the network error (no such host, connection refused, …)
// behind a failed request, or nil.
func netCause(err error) error {
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.As(err, &dns):
		return dns
	case errors.As(err, &op):
		return op
	}
	return nil
}

type progressWriter struct {
	p      Progress
	report func(Progress)
}

func (w *progressWriter) Write(b []byte) (int, error) {
	w.p.Done += int64(len(b))
	w.emit()
	return len(b), nil
}

func (w *progressWriter) emit() {
	if w.report != nil {
		w.report(w.p)
	}
}

// Model is a model found in the models folder.
type Model struct {
	Name string         `json:"name"` // OWNER/NAME
	Dir  string         `json:"dir"`
	Size int64          `json:"size"` // bytes, all files
	Info model2vec.Info `json:"info"`
	Err  string         `json:"error,omitempty"` // why it is unusable, if it is
}

// List returns the models in the folder root, by name. A missing folder
// holds no models.
func List(root string) ([]Model, error) {
	owners, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Model
	for _, o := range owners {
		if !o.IsDir() || strings.HasPrefix(o.Name(), ".") {
			continue
		}
		repos, err := os.ReadDir(filepath.Join(root, o.Name()))
		if err != nil {
			return nil, err
		}
		for _, r := range repos {
			if !r.IsDir() || strings.HasPrefix(r.Name(), ".") {
				continue
			}
			dir := filepath.Join(root, o.Name(), r.Name())
			m := Model{Name: o.Name() + "/" + r.Name(), Dir: dir}
			var missing []string
			for _, f := range Files {
				if st, err := os.Stat(filepath.Join(dir, f)); err == nil {
					m.Size += st.Size()
				} else {
					missing = append(missing, f)
				}
			}
			if len(missing) > 0 {
				m.Err = "missing " + strings.Join(missing, ", ")
			} else if m.Info, err = model2vec.Inspect(dir); err != nil {
				m.Err = err.Error()
			}
			out = append(out, m)
		}
	}
	return out, nil
}
