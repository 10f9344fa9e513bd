package play

// Forget lets go of the pods with these UIDs (timeline.Builder.Forget): a long-running watch
// keeps only the pods it still needs.
func (e *Engine) Forget(uids ...string) {
	if len(uids) > 0 {
		e.b.Forget(uids...)
		e.dirty = true
	}
}
