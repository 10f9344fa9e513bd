//go:build !race

package memtune

// raceDetector says the tests run with the race detector (see race_on_test.go).
const raceDetector = false
