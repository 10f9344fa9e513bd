package timeline

import "math"

// The range of attempts. A run is numbered by its status's restart count, which the API holds
// in an int32 and a recording or a server can set to anything: a count out of range is read as
// the nearest in range, with a note, and the numbers the builder makes itself (the run after the
// last, a new container the count does not tell apart) stay below noDirty.

// MaxRestartCount is the highest restart count the timeline reads: a status's count above it
// is read as it, with a note. No kubelet counts that far (a restart every 10 s would take 340
// years); the attempts above it, up to maxAttempt, are left for the runs the builder numbers
// after the last one.
const MaxRestartCount = 1 << 30

// maxAttempt is the highest attempt a run is numbered with; nextAttempt stays there.
const maxAttempt = math.MaxInt32 - 1

// noDirty marks that no run is to be derived again: above every attempt, so that touch, which
// keeps the least attempt marked, replaces it with the first one marked.
const noDirty = maxAttempt + 1

// nextAttempt is the attempt after a: a+1, or maxAttempt once there.
func nextAttempt(a int32) int32 { return min(a, maxAttempt-1) + 1 }

// countFix says how a status's restart count was out of range, if it was.
type countFix uint8

const (
	countBelowZero countFix = 1 << iota // read as zero
	countAboveMax                       // read as MaxRestartCount
)

// readCount is cs with its restart count as the timeline reads it: one below zero means
// nothing (none), one above MaxRestartCount is MaxRestartCount. fix says which, if either.
func readCount(cs *ContainerStatus) (_ *ContainerStatus, fix countFix) {
	switch {
	case cs.RestartCount < 0:
		fix = countBelowZero
	case cs.RestartCount > MaxRestartCount:
		fix = countAboveMax
	default:
		return cs, 0
	}
	fixed := *cs
	fixed.RestartCount = min(max(cs.RestartCount, 0), MaxRestartCount)
	return &fixed, fix
}
