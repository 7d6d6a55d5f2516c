package sandbox

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParseGoSumKeepsOnlyWhatAModuleCanBe(t *testing.T) {
	sum := `github.com/BurntSushi/toml v1.3.2 h1:o7IhLm0Msx3BaB+n3Ag7L8EVlByGnpq14C4YWiu/gL8=
github.com/BurntSushi/toml v1.3.2/go.mod h1:CxXYINrC8qIiEnFrOxCa7Jy5BFHlXnUU2pbicEuybxQ=
golang.org/x/sys v0.47.0/go.mod h1:x=
../../../../Users/p/.ssh v1.0.0 h1:x=
example.com/a v1.0.0/../../../.ssh/id h1:x=
example.com/.hidden v1.0.0 h1:x=
C:/Users/p v1.0.0 h1:x=
example.com/b 1.0.0 h1:x=
not enough fields
`
	got := parseGoSum([]byte(sum))
	want := []modVersion{
		{Path: "github.com/BurntSushi/toml", Version: "v1.3.2"},
		{Path: "github.com/BurntSushi/toml", Version: "v1.3.2", GoMod: true},
		{Path: "golang.org/x/sys", Version: "v0.47.0", GoMod: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseGoSum = %+v, want %+v", got, want)
	}
	if e := escapeModule("github.com/BurntSushi/toml"); e != "github.com/!burnt!sushi/toml" {
		t.Errorf("escapeModule = %s", e)
	}
}

func TestCopyModulesCopiesWhatAProxyServes(t *testing.T) {
	project, download, dst := t.TempDir(), t.TempDir(), t.TempDir()
	writeTree(t, project, map[string]string{
		"go.sum":              "github.com/BurntSushi/toml v1.3.2 h1:x=\ngithub.com/BurntSushi/toml v1.3.2/go.mod h1:y=\nrsc.io/quote v1.5.2/go.mod h1:z=\n",
		"sub/go.sum":          "example.com/m v0.1.0 h1:x=\n",
		"vendor/x/go.sum":     "example.com/vendored v0.1.0 h1:x=\n",
		".hidden/go.sum":      "example.com/hidden v0.1.0 h1:x=\n",
		"node_modules/go.sum": "example.com/node v0.1.0 h1:x=\n",
	})
	writeTree(t, download, map[string]string{
		"github.com/!burnt!sushi/toml/@v/v1.3.2.info": "{}",
		"github.com/!burnt!sushi/toml/@v/v1.3.2.mod":  "module github.com/BurntSushi/toml\n",
		"github.com/!burnt!sushi/toml/@v/v1.3.2.zip":  "zip",
		"rsc.io/quote/@v/v1.5.2.mod":                  "module rsc.io/quote\n",
		"rsc.io/quote/@v/v1.5.2.zip":                  "zip not asked for",
	})
	mods := goSumModules(project)
	if len(mods) != 4 {
		t.Fatalf("goSumModules = %+v", mods)
	}
	n, err := copyModules(download, dst, mods)
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 {
		t.Errorf("%d files copied, want 4", n)
	}
	for rel, want := range map[string]string{
		"github.com/!burnt!sushi/toml/@v/v1.3.2.zip": "zip",
		"github.com/!burnt!sushi/toml/@v/v1.3.2.mod": "module github.com/BurntSushi/toml\n",
		"rsc.io/quote/@v/v1.5.2.mod":                 "module rsc.io/quote\n",
	} {
		if got := readFile(t, filepath.Join(dst, filepath.FromSlash(rel))); got != want {
			t.Errorf("%s = %q", rel, got)
		}
	}
	if _, err := os.Stat(filepath.Join(dst, "rsc.io/quote/@v/v1.5.2.zip")); err == nil {
		t.Error("a zip go.sum does not ask for was copied")
	}
}
