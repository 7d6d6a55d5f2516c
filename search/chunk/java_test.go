package chunk

import "testing"

// TestJavaConstructs: generic classes, constructors, methods with generics,
// varargs and throws, interfaces with default and private methods, enums
// whose constants have bodies, records with compact constructors,
// annotation types with defaults, sealed and non-sealed types, constants
// (static final fields, interface fields), @Test; text
// blocks, character literals, initializers, anonymous and local classes
// hide or fake no declaration.
func TestJavaConstructs(t *testing.T) {
	cs := checkConstructs(t, "Constructs.java", []string{
		"type Greeter 8 10 10 exported",
		"const Greeter.BRACE 11 11 11",
		"method Greeter.Greeter 19 19 19 exported",
		"method Greeter.hello 21 23 29 exported",
		"method Greeter.array 31 31 31",
		"type Greeter.Listener 33 33 33 exported",
		"method Greeter.Listener.onEvent 34 34 34 exported",
		"method Greeter.Listener.close 35 35 35 exported",
		"method Greeter.Listener.helper 36 36 36",
		"const Greeter.Listener.LIMIT 37 37 37 exported",
		"type Greeter.Color 40 40 45",
		"method Greeter.Color.Color 46 46 46",
		"method Greeter.Color.code 47 47 47",
		"type Greeter.Pair 50 50 50 exported",
		"method Greeter.Pair.Pair 51 51 53 exported",
		"method Greeter.Pair.of 54 54 54",
		"type Greeter.Marker 57 57 57",
		"method Greeter.Marker.value 58 58 58 exported",
		"method Greeter.Marker.ids 59 59 59 exported",
		"type Greeter.Node 62 62 62",
		"type Greeter.Leaf 63 63 63",
		"type Helper 66 66 66",
		"method Helper.testIt 67 68 68 test",
	})
	if c := bySymbol(cs, "Greeter"); c.Doc != "Greets people." ||
		c.Signature != "public final class Greeter<T extends Comparable<? super T>> extends Base implements Runnable" {
		t.Errorf("class %+v", c)
	}
	if c := bySymbol(cs, "Greeter.hello"); c.Doc != "Says hello." ||
		c.Signature != "public <R> List<R> hello(Map<String, List<R>> m, int... xs) throws IOException, RuntimeException" {
		t.Errorf("method %+v", c)
	}
	if c := bySymbol(cs, "Greeter.BRACE"); c.Signature != `private static final String BRACE = "}{";` || c.Kind != Const {
		t.Errorf("constant %+v", c)
	}
	if c := bySymbol(cs, "Greeter.Leaf"); c.Signature != "non-sealed class Leaf implements Node" {
		t.Errorf("non-sealed class %+v", c)
	}
}

func TestJavaDoesNotParse(t *testing.T) {
	for name, src := range map[string]string{
		"unclosed class":          "class A {\n  void f() {}\n",
		"unterminated text block": "class A { String s = \"\"\"\n x; }\n",
		"newline in a string":     "class A { String s = \"a\nb\"; }\n",
		"stray parenthesis":       "class A { void f()) {} }\n",
	} {
		if _, ok := Java("bad.java", []byte(src)); ok {
			t.Errorf("%s: parsed", name)
		}
	}
}
