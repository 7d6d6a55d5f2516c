// Package testmain holds what a package's TestMain decides for its tests
// beyond running them: how many of its parallel tests run at once.
package testmain

import "flag"

// WaitingParallel raises -test.parallel to n unless the command line set
// it. go test's default is GOMAXPROCS, 2 on a 2-core machine, which is
// right for tests that compute; for tests that mostly wait (on a server's
// deadline, another process, a browser) two of them would hold both slots
// while the cores idle. Under the race detector (CI's long run) the default
// stays: every test costs several times the CPU there, and eight of the
// server package's servers starting at once on 2 cores outran its 10 s
// start deadline. Call it from TestMain, before m.Run.
func WaitingParallel(n string) {
	if !flag.Parsed() {
		flag.Parse()
	}
	if raceDetector {
		return
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", n)
	}
}
