package chunk

import "testing"

// TestJavaConstructs: generic classes, constructors, methods with generics,
// varargs and throws, interfaces with default and private methods, enums
// whose constants have bodies, records with compact constructors,
// annotation types with defaults, sealed and non-sealed types, @Test; text
// blocks, character literals, initializers, anonymous and local classes
// hide or fake no declaration.
func TestJavaConstructs(t *testing.T) {
	cs := checkConstructs(t, "Constructs.java", []string{
		"type Greeter 8 10 18 exported",
		"method Greeter.Greeter 19 19 19 exported",
		"method Greeter.hello 21 23 29 exported",
		"method Greeter.array 31 31 31",
		"type Greeter.Listener 33 33 33 exported",
		"method Greeter.Listener.onEvent 34 34 34 exported",
		"method Greeter.Listener.close 35 35 35 exported",
		"method Greeter.Listener.helper 36 36 36",
		"type Greeter.Color 39 39 44",
		"method Greeter.Color.Color 45 45 45",
		"method Greeter.Color.code 46 46 46",
		"type Greeter.Pair 49 49 49 exported",
		"method Greeter.Pair.Pair 50 50 52 exported",
		"method Greeter.Pair.of 53 53 53",
		"type Greeter.Marker 56 56 56",
		"method Greeter.Marker.value 57 57 57 exported",
		"method Greeter.Marker.ids 58 58 58 exported",
		"type Greeter.Node 61 61 61",
		"type Greeter.Leaf 62 62 62",
		"type Helper 65 65 65",
		"method Helper.testIt 66 67 67 test",
	})
	if c := bySymbol(cs, "Greeter"); c.Doc != "Greets people." ||
		c.Signature != "public final class Greeter<T extends Comparable<? super T>> extends Base implements Runnable" {
		t.Errorf("class %+v", c)
	}
	if c := bySymbol(cs, "Greeter.hello"); c.Doc != "Says hello." ||
		c.Signature != "public <R> List<R> hello(Map<String, List<R>> m, int... xs) throws IOException, RuntimeException" {
		t.Errorf("method %+v", c)
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
