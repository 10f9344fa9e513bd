package timeline

// SetFinalWorkers has Final derive its pods with n workers, however many pods there are (0: as
// it would), until the returned func is called.
func SetFinalWorkers(n int) (restore func()) {
	old := testFinalWorkers
	testFinalWorkers = n
	return func() { testFinalWorkers = old }
}

// ChangeAll has the next Snapshot derive every pod whole, as if each of its facts had just
// changed: its row and every lane from the first run on (BenchmarkDeriveJobPod).
func (b *Builder) ChangeAll() {
	for _, ps := range b.podList {
		ps.touch()
		ps.rowDirty = true
		for _, ls := range ps.laneOrder {
			ls.touch(0)
		}
	}
	b.changed = true
}

// Touch has the next Snapshot derive every pod again with none of its facts changed, as an
// observation that changes nothing the timeline shows does (BenchmarkDeriveJobPodUnchanged).
func (b *Builder) Touch() {
	for _, ps := range b.podList {
		ps.touch()
	}
	b.changed = true
}

// TouchLastRun has the next Snapshot derive every pod again with lane i's last run marked, as
// most observations of a running pod (a status, an Event) have it derived
// (BenchmarkDeriveJobPodLastRun).
func (b *Builder) TouchLastRun(i int) {
	for _, ps := range b.podList {
		ps.touch()
		ls := ps.laneOrder[i]
		ls.touch(ls.instances[len(ls.instances)-1].attempt)
	}
	b.changed = true
}
