//go:build race

package testmain

// raceDetector says the tests were built with -race.
const raceDetector = true
