//go:build race

package memtune

// raceDetector says the tests run with the race detector, whose shadow memory is resident beside
// the program's: a test that measures resident memory cannot then.
const raceDetector = true
