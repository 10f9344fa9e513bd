package watch

// What the tests of package watch_test (recordings_test.go) check of the inside of watch.
var (
	PodStatus     = podStatus
	SlimTransform = slim
)
