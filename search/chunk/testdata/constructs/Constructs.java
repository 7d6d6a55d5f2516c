/*
 * License header.
 */
package com.example;

import java.util.*;

/** Greets people. */
@SuppressWarnings({"unchecked", "rawtypes"})
public final class Greeter<T extends Comparable<? super T>> extends Base implements Runnable {
    private static final String BRACE = "}{";
    private final char c = '{';
    private final String block = """
        class Fake { void fake() {} }
        """;
    static { init(); }
    { instance(); }

    public Greeter(String name) { super(name); }

    /** Says hello. */
    @Override
    public <R> List<R> hello(Map<String, List<R>> m, int... xs) throws IOException, RuntimeException {
        Runnable r = new Runnable() {
            @Override public void run() {}
        };
        class Local { void x() {} }
        return null;
    }

    int[] array()[] { return null; }

    protected interface Listener {
        void onEvent(String e);
        default void close() { }
        private static int helper() { return 0; }
        int LIMIT = 3, OTHER = 4;
    }

    enum Color {
        RED("r") {
            @Override String code() { return "R"; }
        },
        GREEN("g");
        private final String c;
        Color(String c) { this.c = c; }
        String code() { return c; }
    }

    public record Pair<A, B>(A first, B second) implements Comparable<Pair<A, B>> {
        public Pair {
            Objects.requireNonNull(first);
        }
        static <A, B> Pair<A, B> of(A a, B b) { return new Pair<>(a, b); }
    }

    @interface Marker {
        String value() default "x";
        int[] ids() default {1, 2};
    }

    sealed interface Node permits Leaf {}
    non-sealed class Leaf implements Node {}
}

class Helper {
    @Test
    void testIt() {}
}
