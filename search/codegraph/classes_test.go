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
			g := chunkGraph(map[string]string{tc.path: tc.src})
			wantCalls(t, g, tc.want)
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
	g := chunkGraph(files)
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

// A call through a field whose class the code states goes to that class's
// method, though other classes have methods of that name: a TypeScript
// member, a constructor's parameter property and a field set with new;
// a Python attribute set from a constructor, annotated in __init__ or in the
// class body; a Java field, with or without this. A field of no stated
// class is matched by name, as before.
func TestCallsThroughFields(t *testing.T) {
	files := map[string]string{
		"src/store.ts": `export class Cache { get(k: string) { return k } }
export class Database { get(k: string) { return k } }
export class Repo { get(k: string) { return k } }
export class Queue { get(k: string) { return k } }
`,
		"src/svc.ts": `import { Cache, Database, Repo, Queue } from './store'

export class Svc {
  private cache = new Cache()
  private readonly db: Database
  private other: any
  constructor(private readonly repo: Repo) {
    this.db = new Database()
  }
  viaMember() { return this.cache.get('a') }
  viaAssigned() { return this.db.get('a') }
  viaParam() { return this.repo.get('a') }
}
`,
		"app/store.py": "class Cache:\n    def get(self, k):\n        return k\n\n\nclass Database:\n    def get(self, k):\n        return k\n\n\nclass Repo:\n    def get(self, k):\n        return k\n",
		"app/svc.py": `from app.store import Cache, Database, Repo


class Svc:
    repo: Repo

    def __init__(self):
        self.cache = Cache()
        self.db: Database = connect()

    def via_ctor(self):
        return self.cache.get(1)

    def via_annotation(self):
        return self.db.get(1)

    def via_class_attr(self):
        return self.repo.get(1)

    def reset(self, fresh):
        self.other = Cache()
        if fresh:
            self.other = Database()

    def via_two_classes(self):
        return self.other.get(1)
`,
		"src/main/java/app/Store.java": "package app;\n\nclass Store {\n    String get(String k) { return k; }\n}\n",
		"src/main/java/app/Index.java": "package app;\n\nclass Index {\n    String get(String k) { return k; }\n}\n",
		"src/main/java/app/Svc.java": `package app;

class Svc {
    private final Store store = new Store();
    private Index index;

    String bare() { return store.get("a"); }

    String qualified() { return this.index.get("a"); }
}
`,
	}
	g := chunkGraph(files)
	wantCalls(t, g, map[string]string{
		"Svc.viaMember":                 "store.Cache.get",
		"Svc.viaAssigned":               "store.Database.get",
		"Svc.viaParam":                  "store.Repo.get",
		"app/svc.py:Svc.via_ctor":       "store.Cache.get",
		"app/svc.py:Svc.via_annotation": "store.Database.get",
		"app/svc.py:Svc.via_class_attr": "store.Repo.get",
		// Set to two classes: by name, and three classes have get.
		"app/svc.py:Svc.via_two_classes": "",
		"Svc.bare":                       "Store.Store.get",
		"Svc.qualified":                  "Index.Index.get",
	})
}

// A call on a local whose class the code states where it sets it goes to
// that class's method: const x = new Foo() or let x: Foo in TypeScript,
// x = Foo() or x: Foo in Python, Foo x = … in Java. A Python local set to
// two different things is matched by name, as before (the typed languages
// keep a local's declared class).
func TestCallsOnLocals(t *testing.T) {
	files := map[string]string{
		"src/store.ts": `export class Cache { get(k: string) { return k } }
export class Database { get(k: string) { return k } }
`,
		"src/use.ts": `import { Cache, Database } from './store'

export function viaNew() {
  const c = new Cache()
  return c.get('a')
}

export function viaType(make: () => Database) {
  let d: Database = make()
  return d.get('a')
}

`,
		"app/store.py": "class Cache:\n    def get(self, k):\n        return k\n\n\nclass Database:\n    def get(self, k):\n        return k\n",
		"app/use.py": "from app.store import Cache, Database\n\n\ndef via_call():\n    c = Cache()\n    return c.get(1)\n\n\ndef via_annotation():\n    d: Database = connect()\n    return d.get(1)\n" +
			"\n\ndef twice(flag):\n    x = Cache()\n    if flag:\n        x = other()\n    return x.get(1)\n",
		"src/main/java/app/Store.java": "package app;\n\nclass Store {\n    String get(String k) { return k; }\n}\n",
		"src/main/java/app/Index.java": "package app;\n\nclass Index {\n    String get(String k) { return k; }\n}\n",
		"src/main/java/app/UseIt.java": "package app;\n\nclass UseIt {\n    String run() {\n        Index ix = Index.open();\n        return ix.get(\"a\");\n    }\n}\n",
	}
	g := chunkGraph(files)
	for caller, want := range map[string]string{
		"viaNew":         "store.Cache.get",
		"viaType":        "store.Database.get",
		"twice":          "",
		"via_call":       "store.Cache.get",
		"via_annotation": "store.Database.get",
		"UseIt.run":      "Index.Index.get",
	} {
		got := calls(t, g, caller)
		if caller == "twice" {
			if strings.Contains(got, "store.Cache.get") && !strings.Contains(got, "(loose)") {
				t.Errorf("twice calls %q: a local set to two things has no stated class", got)
			}
			continue
		}
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("%s calls %q, want %q among them", caller, got, want)
		}
	}
}

// A call on a parameter goes to the method of the class the signature gives
// it (ctx: Context, Context ctx), however the parameter is written: on lines
// of their own, optional, with a default, a modifier or an annotation.
// Each language has two classes with a method invoke, so the name alone
// decides nothing.
func TestCallsOnTypedParameters(t *testing.T) {
	g := chunkGraph(map[string]string{
		"src/ctx.ts": `export class Context {
  invoke(f: () => number) { return f() }
}

export class Command {
  invoke(ctx: Context) { return ctx.invoke(() => 1) }
}

export function run<T extends object>(cmd?: Command | null, ...rest: string[]): void {
  cmd.invoke(new Context())
}

export class Button {
  @Listen('click', { passive: true }) onClick(ctx: Context) { ctx.invoke(() => 2) }
}

export function later(
  ctx: Context,
  n: number = 2,
) {
  return ctx.invoke(() => n)
}
`,
		"app/ctx.py": `import typing as t


class Context:
    def invoke(self, f):
        return f()


class Command:
    def invoke(self, ctx: "Context") -> t.Any:
        return ctx.invoke(self.callback)


def run(cmd: t.Optional[Command] = None, *args: str, **kw: t.Any):
    return cmd.invoke(Context())


def later(
    ctx: Context,
    n: int,
):
    return ctx.invoke(n)


def swap(ctx: Context):
    ctx = other()
    return ctx.invoke(1)
`,
		"src/main/java/app/Context.java": "package app;\n\nclass Context {\n    Object invoke(Runnable r) { return null; }\n}\n",
		"src/main/java/app/Command.java": "package app;\n\nclass Command {\n    @SuppressWarnings(\"unchecked\")\n    Object invoke(final Context ctx) { return ctx.invoke(null); }\n}\n",
		"src/main/java/app/Main.java":    "package app;\n\nclass Main {\n    static void run(@Deprecated Command cmd, java.util.List<String> args) {\n        cmd.invoke(null);\n    }\n}\n",
	})
	wantCalls(t, g, map[string]string{
		"src/ctx.ts:Command.invoke":                     "ctx.Context.invoke",
		"src/ctx.ts:run":                                "ctx.Command.invoke",
		"src/ctx.ts:later":                              "ctx.Context.invoke",
		"Button.onClick":                                "ctx.Context.invoke",
		"app/ctx.py:Command.invoke":                     "ctx.Context.invoke",
		"app/ctx.py:run":                                "ctx.Command.invoke",
		"app/ctx.py:later":                              "ctx.Context.invoke",
		"src/main/java/app/Command.java:Command.invoke": "Context.Context.invoke",
		"Main.run":                                      "Command.Command.invoke",
	})
	// A parameter set to something else in the body has no stated class.
	if got := calls(t, g, "swap"); strings.Contains(got, "Context.invoke") && !strings.Contains(got, "(loose)") {
		t.Errorf("swap calls %q: its ctx is set again", got)
	}
}

// chunkGraph is the graph of files (path: source) in languages without a Go
// parser, their facts taken from their chunks as the index takes them.
func chunkGraph(files map[string]string) *Graph {
	g := New()
	for p, src := range files {
		lang := chunk.LanguageOf(p)
		g.SetFile(FromChunks(p, lang, chunk.Code(p, lang, []byte(src)), []byte(src)))
	}
	return g
}

// A call on a local or a field set from a function's call goes to the
// method of the class the function's signature says it returns: a
// TypeScript return type (a Promise's too, awaited) or a Python annotation.
func TestCallsOnReturnedClasses(t *testing.T) {
	g := chunkGraph(map[string]string{
		"src/db.ts": `export class Database { get(k: string) { return k } }
export class Conn { get(k: string) { return k } }
export function openDb(name: string): Database { return new Database() }
export async function connect(): Promise<Conn> { return new Conn() }
`,
		"src/use.ts": `import { openDb, connect } from './db'

export async function useBoth() {
  const db = openDb('x')
  db.get('a')
  const c = await connect()
  return c.get('b')
}

export class Repo {
  private db
  constructor() {
    this.db = openDb('y')
  }
  load() { return this.db.get('a') }
}
`,
		"app/db.py": "class Database:\n    def get(self, k):\n        return k\n\n\nclass Conn:\n    def get(self, k):\n        return k\n\n\n" +
			"def open_db(name) -> Database:\n    return Database()\n\n\ndef connect() -> \"Conn\":\n    return Conn()\n",
		"app/use.py": "from app.db import open_db, connect\n\n\ndef use_db():\n    db = open_db('x')\n    return db.get(1)\n\n\ndef use_conn():\n    c = connect()\n    return c.get(1)\n\n\n" +
			"class Repo:\n    def __init__(self):\n        self.conn = connect()\n\n    def load(self):\n        return self.conn.get(1)\n",
	})
	wantCalls(t, g, map[string]string{
		"useBoth":  "db.openDb db.Database.get db.connect db.Conn.get",
		"use_db":   "db.open_db db.Database.get",
		"use_conn": "db.connect db.Conn.get",
		// Fields set from such a call.
		"src/use.ts:Repo.load": "db.Database.get",
		"app/use.py:Repo.load": "db.Conn.get",
	})
}

// wantCalls checks what each caller calls (see calls).
func wantCalls(t *testing.T, g *Graph, want map[string]string) {
	t.Helper()
	for caller, w := range want {
		if got := calls(t, g, caller); got != w {
			t.Errorf("%s calls %q, want %q", caller, got, w)
		}
	}
}
