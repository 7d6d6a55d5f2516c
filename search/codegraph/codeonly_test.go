package codegraph

import (
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/search/chunk"
)

// A name followed by "(" in a comment, a docstring or a message is no call;
// one inside a template literal's ${…} or an f-string's {…} is. Each
// fixture's run names every function of the file in its comments and
// strings and calls only real().
func TestCallsInCommentsAndStringsAreNotCalls(t *testing.T) {
	for _, tc := range []struct {
		lang, path, src, want string
	}{
		{"typescript", "app/run.ts", "export function real(): string {\n  return ''\n}\n\n" +
			"export function decoy(): string {\n  return ''\n}\n\n" +
			"export function shown(): string {\n  return ''\n}\n\n" +
			"export function run(): string {\n" +
			"  // decoy() would be called here once\n" +
			"  /* and decoy(1) here,\n     decoy(2) here */\n" +
			"  const m = 'decoy() failed' + \"decoy(\"\n" +
			"  const r = /decoy\\(/\n" +
			"  return `decoy(${real()}) ${`nested decoy(${shown()})`}` + m + r\n" +
			"}\n",
			"real shown"},
		{"javascript", "app/view.jsx", "function real() {\n  return 1\n}\n\n" +
			"function decoy() {\n  return 2\n}\n\n" +
			"function run() {\n" +
			"  // decoy()\n" +
			"  return <div title=\"x\">{real()}</div>\n" +
			"}\n",
			"real"},
		{"python", "app/run.py", "def real():\n    return 1\n\n\ndef decoy():\n    return 2\n\n\n" +
			"def shown():\n    return 3\n\n\n" +
			"def run():\n" +
			"    \"\"\"Calls real(), never decoy().\n\n    >>> decoy()\n    \"\"\"\n" +
			"    # decoy() is not called here\n" +
			"    x = 'decoy()' + r\"decoy(\\\"\" + b'decoy()'  # nor decoy()\n" +
			"    return f\"decoy({real()}) {{decoy()}} {shown():>{decoy.width}}\" + rf'\\{x}' + x\n",
			"real shown"},
		{"rust", "src/run.rs", "fn real() -> u32 {\n    1\n}\n\nfn decoy() -> u32 {\n    2\n}\n\n" +
			"fn run() -> u32 {\n" +
			"    // decoy() is not called\n" +
			"    /* nor /* nested */ decoy() */\n" +
			"    let s = \"decoy()\";\n" +
			"    let r = r#\"decoy(\"#;\n" +
			"    let c = '(';\n" +
			"    real() + s.len() as u32 + r.len() as u32 + c as u32\n" +
			"}\n",
			"real"},
		{"java", "src/Run.java", "class Run {\n" +
			"    static int real() {\n        return 1;\n    }\n\n" +
			"    static int decoy() {\n        return 2;\n    }\n\n" +
			"    static int run() {\n" +
			"        // decoy() is not called\n" +
			"        String s = \"decoy()\";\n" +
			"        String b = \"\"\"\n            decoy()\n            \"\"\";\n" +
			"        return real() + s.length() + b.length();\n" +
			"    }\n" +
			"}\n",
			"real"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			g := chunkGraph(map[string]string{tc.path: tc.src})
			run := "run"
			if tc.lang == "java" {
				run = "Run.run"
			}
			got := ""
			w, err := g.Callees(run, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range w.Nodes {
				if n.Symbol.Name == "decoy" || n.Symbol.Name == "real" || n.Symbol.Name == "shown" {
					if got != "" {
						got += " "
					}
					got += n.Symbol.Name
				}
			}
			if got != tc.want {
				t.Errorf("run calls %q, want %q", got, tc.want)
			}
		})
	}
}

// CodeOnly keeps every line where it was: blanking never adds or removes a
// byte, and a file the lexer cannot follow comes back as it is.
func TestCodeOnlyKeepsLines(t *testing.T) {
	src := []byte("const a = 'x\\'y' // c\r\nconst b = `t\n${f('q')}\n`\n")
	got := chunk.CodeOnly("a.ts", "typescript", src)
	want := "const a =" + strings.Repeat(" ", 12) + "\r\nconst b =   \n  f(   ) \n \n"
	if string(got) != want {
		t.Errorf("CodeOnly:\n%q\nwant\n%q", got, want)
	}
	bad := []byte("const s = 'unterminated\n")
	if got := chunk.CodeOnly("b.ts", "typescript", bad); string(got) != string(bad) {
		t.Errorf("unlexable input changed: %q", got)
	}
}

// A field's class is read from the code alone: one named only in a comment,
// a docstring or a string is no field, and gives no real field a second
// class (which would drop it).
func TestFieldsInCommentsAndStringsAreNotFields(t *testing.T) {
	for _, tc := range []struct {
		lang, path, src, want string
	}{
		{"typescript", "app/service.ts", "export class Service {\n" +
			"  constructor() {\n" +
			"    // this.db = new Decoy()\n" +
			"    this.db = new Real()\n" +
			"    const msg = 'this.cache = new Decoy()'\n" +
			"  }\n" +
			"}\n",
			"Service.db:Real"},
		{"python", "app/service.py", "class Service:\n" +
			"    \"\"\"Holds\n    self.cache: Decoy = None\n    in older versions.\"\"\"\n\n" +
			"    # store: Decoy\n" +
			"    store: Real\n\n" +
			"    def __init__(self):\n" +
			"        # self.db = Decoy()\n" +
			"        self.db = Real()\n" +
			"        self.note = 'self.other = Decoy()'\n",
			"Service.db:Real Service.store:Real"},
		{"java", "src/Service.java", "class Service {\n" +
			"    /*\n      Decoy cache;\n    */\n" +
			"    private Real repo;\n" +
			"    String s = \"\"\"\n        Decoy other;\n        \"\"\";\n" +
			"}\n",
			"Service.repo:Real Service.s:String"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			src := []byte(tc.src)
			ff := FromChunks(tc.path, tc.lang, chunk.Code(tc.path, tc.lang, src), src)
			var got []string
			for _, f := range ff.Fields {
				got = append(got, f.Struct+"."+f.Name+":"+f.Type)
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("fields %q, want %q", got, tc.want)
			}
		})
	}
}

// A method called on an object is not a call of a variable that shares its
// name (var slice = Array.prototype.slice; a file's own join = path.join),
// whether the object is named (view.root.slice) or an expression
// (f(x).join, a?.slice); a plain call of the variable and a spread of a
// call still are calls.
func TestMethodCallsAreNotVariableCalls(t *testing.T) {
	src := "var slice = Array.prototype.slice\n" + // 1
		"var join = path.join\n" + // 2
		"function parts(x) {\n" + // 3
		"  return [x]\n" + // 4
		"}\n" + // 5
		"function spread(x) { return x }\n" + // 6
		"function render(view) {\n" + // 7
		"  var dirs = view.root.slice(0, -1).join(', ')\n" + // 8
		"  var more = parts(view)\n" + // 9
		"    .join('/')\n" + // 10
		"  var opt = view?.slice(1)\n" + // 11
		"  var all = [...spread(dirs)]\n" + // 12
		"  return join(dirs, more, opt, all)\n" + // 13
		"}\n"
	g := chunkGraph(map[string]string{"lib/view.js": src})
	if got, want := calls(t, g, "render"), "view.parts view.spread view.join(loose)"; got != want {
		t.Errorf("render calls %q, want %q", got, want)
	}
}

// CommonJS's require is an import: var View = require('./view') hides
// neither view.js's View from a call (new View(…) goes there) nor, for a
// package outside the project, makes the require line a callee.
func TestRequireIsAnImport(t *testing.T) {
	g := chunkGraph(map[string]string{
		"lib/view.js": "function View(name) {\n  this.name = name\n}\nmodule.exports = View\n",
		"lib/application.js": "var View = require('./view')\n" +
			"var merge = require('utils-merge')\n" +
			"function render(name) {\n" +
			"  var view = new View(name)\n" +
			"  return merge({}, view)\n" +
			"}\n",
	})
	if got, want := calls(t, g, "render"), "view.View(loose)"; got != want {
		t.Errorf("render calls %q, want %q", got, want)
	}
}
