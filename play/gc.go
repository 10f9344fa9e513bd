package play

// LiveGCPercent is the garbage collector's target for a live run (as GOGC sets it), which
// sidecar-top sets for every live run unless GOGC is set: the heap may grow by twice what is
// live before a collection, not once. A live run's heap is mostly garbage at any time (each
// update derives a new immutable pod and drops the last one), and on two cores a quarter to a
// third of the 1,000-pod Job's live path had gone to collecting it: 107,400-128,700
// observations/s at the default, 141,000-152,800 at 200, six rounds in turn on 2026-12-06
// (BenchmarkLivePath, which runs at this target as a live run does). It costs a small target
// nothing (the heap stays under the collector's minimum, 4 MB times GOGC/100: 5.6-6.1 MB
// anonymous either way, 41.7-42.7 MB resident beside kubectl's 47.4-48.7, e2e/perf/live-
// memory.sh) and a big one up to half again its heap's peak (BenchmarkLivePath/pods-1000: a
// heap of 115-172 MB where it had been 87-142).
const LiveGCPercent = 200
