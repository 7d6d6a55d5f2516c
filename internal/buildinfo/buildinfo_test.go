package buildinfo

import "testing"

func TestPseudoVersionsAreDevelopmentBuilds(t *testing.T) {
	for v, pseudo := range map[string]bool{
		"v0.0.0-20261128101500-abcdef123456":              true,
		"v1.2.4-0.20261128101500-abcdef123456":            true,
		"v1.2.3-rc.1.0.20261128101500-abcdef123456":       true,
		"v0.0.0-20261128101500-abcdef123456+dirty":        true,
		"v2.0.0-20261128101500-abcdef123456+incompatible": true,
		"v1.2.3":      false,
		"v1.2.3-rc.1": false,
	} {
		if pseudoVersion.MatchString(v) != pseudo {
			t.Errorf("%s: pseudo %v", v, !pseudo)
		}
	}
}

func TestSameSource(t *testing.T) {
	dev := func(commit string, modified bool) Info {
		return Info{Version: "dev", Commit: commit, Modified: modified}
	}
	for _, c := range []struct {
		a, b Info
		want bool
	}{
		{Info{Version: "v1.2.3"}, Info{Version: "v1.2.3", Commit: "x"}, true},
		{Info{Version: "v1.2.3"}, Info{Version: "v1.2.4"}, false},
		{dev("abc", false), dev("abc", false), true},
		{dev("abc", false), dev("abd", false), false},
		{dev("abc", true), dev("abc", false), false},
		{dev("", false), dev("", false), false},
		{dev("abc", false), Info{Version: "v1.2.3", Commit: "abc"}, false},
	} {
		if got := SameSource(c.a, c.b); got != c.want {
			t.Errorf("SameSource(%+v, %+v) = %v", c.a, c.b, got)
		}
	}
}
