package codegraph

import (
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/search/chunk"
)

// calls returns what name calls, one level down, as "Display" or
// "Display(loose)", leaving out the types it extends.
func calls(t *testing.T, g *Graph, name string) string {
	t.Helper()
	w, err := g.Callees(name, 1, 0)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var out []string
	for _, n := range w.Nodes {
		if n.Embeds {
			continue
		}
		s := n.Symbol.Display()
		if n.Loose {
			s += "(loose)"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// Calls through this, self, cls and Self go to the enclosing class's method
// or, when it has none, to its base class's (super.m() and super().m() to
// the base's) — never to another class's
// method of the same name, which matching by name alone would pick or give
// up on. Each fixture has two classes with the same method names.
func TestSelfCalls(t *testing.T) {
	for _, tc := range []struct {
		lang, path, src string
		want            map[string]string // caller -> callees
	}{
		{"typescript", "app/repo.ts", `export class Base {
  save(x: number): number {
    return x
  }

  check(x: number): number {
    return x
  }
}

export class Repo extends Base {
  load(): number {
    return this.fetch()
  }

  check(x: number): number {
    return super.check(x)
  }

  fetch(): number {
    this.save(1)
    return 1
  }
}

export class Other {
  fetch(): number {
    return 2
  }

  check(x: number): number {
    return x
  }

  save(x: number): number {
    return x
  }
}
`, map[string]string{"Repo.load": "repo.Repo.fetch", "Repo.fetch": "repo.Base.save", "Repo.check": "repo.Base.check"}},
		{"javascript", "app/repo.js", `class Base {
  save(x) {
    return x
  }
}

class Repo extends Base {
  load() {
    return this.fetch()
  }

  fetch() {
    this.save(1)
    return 1
  }
}

class Other {
  fetch() {
    return 2
  }

  save(x) {
    return x
  }
}
`, map[string]string{"Repo.load": "repo.Repo.fetch", "Repo.fetch": "repo.Base.save"}},
		{"python", "app/repo.py", `class Base:
    def save(self, x):
        return x

    def check(self, x):
        return x


class Repo(Base):
    def load(self):
        return self.fetch()

    def check(self, x):
        return super().check(x)

    def fetch(self):
        self.save(1)
        return 1

    @classmethod
    def create(cls):
        return cls.build()

    @classmethod
    def build(cls):
        return None


class Other:
    def fetch(self):
        return 2

    def check(self, x):
        return x

    def save(self, x):
        return x

    @classmethod
    def build(cls):
        return None
`, map[string]string{"Repo.load": "repo.Repo.fetch", "Repo.fetch": "repo.Base.save", "Repo.create": "repo.Repo.build",
			"Repo.check": "repo.Base.check"}},
		{"rust", "src/repo.rs", `pub trait Store {
    fn describe(&self) -> u32 {
        0
    }
}

pub trait Shelf {
    fn describe(&self) -> u32 {
        1
    }
}

pub struct Repo {}

impl<'a> std::fmt::Debug for Repo {}

impl Store for Repo {}

impl Repo {
    pub fn load(&self) -> u32 {
        self.fetch()
    }

    fn show(&self) -> u32 {
        self.describe()
    }

    fn fetch(&self) -> u32 {
        Self::make()
    }

    fn make() -> u32 {
        1
    }
}

pub struct Other {}

impl Other {
    fn fetch(&self) -> u32 {
        2
    }

    fn make() -> u32 {
        2
    }
}
`, map[string]string{"Repo.load": "repo.Repo.fetch", "Repo.fetch": "repo.Repo.make", "Repo.show": "repo.Store.describe"}},
		{"java", "app/Repo.java", `package app;

class Base {
    int save(int x) {
        return x;
    }
}

public class Repo extends Base {
    int load() {
        return this.fetch();
    }

    int fetch() {
        save(1);
        return count();
    }

    int count() {
        return 1;
    }
}

class Other {
    int fetch() {
        return 2;
    }

    int save(int x) {
        return x;
    }

    int count() {
        return 2;
    }
}
`, map[string]string{"Repo.load": "Repo.Repo.fetch", "Repo.fetch": "Repo.Base.save Repo.Repo.count"}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			src := []byte(tc.src)
			g := New()
			g.SetFile(FromChunks(tc.path, tc.lang, chunk.Code(tc.path, tc.lang, src), src))
			for caller, want := range tc.want {
				if got := calls(t, g, caller); got != want {
					t.Errorf("%s calls %q, want %q", caller, got, want)
				}
			}
		})
	}
}

// A class whose base is in another file of the project: self.m() goes to
// the base's method there; the same class name in two files does not
// confuse the calls made inside each.
func TestSelfCallsAcrossFiles(t *testing.T) {
	files := map[string]string{
		"app/base.py": "class Base:\n    def save(self, x):\n        return x\n",
		"app/repo.py": "from app.base import Base\n\n\nclass Repo(Base):\n    def load(self):\n        return self.save(1)\n\n    def close(self):\n        return None\n",
		"old/repo.py": "class Repo:\n    def load(self):\n        return self.close()\n\n    def close(self):\n        return None\n\n    def save(self, x):\n        return x\n",
	}
	g := New()
	for p, src := range files {
		g.SetFile(FromChunks(p, "python", chunk.Code(p, "python", []byte(src)), []byte(src)))
	}
	if got := calls(t, g, "app/repo.py:Repo.load"); got != "base.Base.save" {
		t.Errorf("app Repo.load calls %q", got)
	}
	if got := calls(t, g, "old/repo.py:Repo.load"); got != "repo.Repo.close" {
		t.Errorf("old Repo.load calls %q", got)
	}
	w, _ := g.Callers("old/repo.py:Repo.close", 1, 0)
	if len(w.Nodes) != 1 || w.Nodes[0].Symbol.Path != "old/repo.py" {
		t.Errorf("callers of old Repo.close: %+v", w.Nodes)
	}
}
