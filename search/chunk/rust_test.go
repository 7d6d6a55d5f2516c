package chunk

import "testing"

// TestRustConstructs: structs, enums, traits with required and provided
// methods, associated consts and types, impl blocks named by their self
// type (generic, trait and unsafe impls), macro_rules!, consts with block
// values, statics, aliases, extern blocks, raw identifiers, inline and
// external modules, test attributes; doc comments and attributes start the
// chunk; nested block comments, raw and byte strings, char literals and
// lifetimes hide no brace; items in a function body stay in it.
func TestRustConstructs(t *testing.T) {
	cs := checkConstructs(t, "constructs.rs", []string{
		"type Point 5 8 11 exported",
		"type Shape 13 14 14 exported",
		"type Area 16 16 16 exported",
		"method Area.area 17 18 18 exported",
		"const Area.SIDES 19 19 19 exported",
		"type Area.Unit 20 20 20 exported",
		"method Area.describe 21 21 21 exported",
		"container Point 24 24 24 exported",
		"method Point.fmt 25 25 34 exported",
		"container Box 37 37 37 exported",
		"container Shape 38 38 38 exported",
		"func square 40 40 42",
		"const MAX 44 44 44 exported",
		"var COUNTER 45 45 45",
		"type Result 46 46 46 exported",
		"func abs 48 48 48",
		"func async 50 50 50 exported",
		"container inner 51 51 51",
		"func nested 52 52 52 exported",
		"container tests 56 57 57 test",
		"func it_works 58 59 59 test",
	})
	if c := bySymbol(cs, "Point"); c.Doc != "A point.\nMore." || c.Signature != "pub struct Point<'a, T: Copy = u8>" {
		t.Errorf("struct %+v", c)
	}
	if c := bySymbol(cs, "Point.fmt"); c.Signature != "fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result" || c.Types[0] != "Point" {
		t.Errorf("method %+v", c)
	}
	if c := cs[0]; c.Kind != Package || c.Doc != "Crate docs." || c.StartLine != 1 {
		t.Errorf("crate head %+v", c)
	}
	if c := bySymbol(cs, "Area.area"); c.Doc != "Its area." {
		t.Errorf("trait method %+v", c)
	}
}

// Inner doc comments after a license header still document the module.
func TestRustModuleDoc(t *testing.T) {
	cs := Code("lib.rs", "rust", []byte("// Copyright the authors.\n\n//! The crate.\n//! More.\n\nuse std::io;\n\npub fn f() {}\n"))
	if c := cs[0]; c.Kind != Package || c.Doc != "The crate.\nMore." {
		t.Errorf("module head %+v", c)
	}
}

func TestRustDoesNotParse(t *testing.T) {
	for name, src := range map[string]string{
		"unclosed brace":          "fn f() {\n",
		"unterminated raw string": "fn f() { let s = r#\"x\"; }\n",
		"unterminated comment":    "/* /* */ fn f() {}\n",
		"stray brace":             "fn f() {}\n}\n",
	} {
		if _, ok := Rust("bad.rs", []byte(src)); ok {
			t.Errorf("%s: parsed", name)
		}
	}
}
