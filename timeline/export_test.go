package timeline

// SetFinalWorkers has Final derive its pods with n workers, however many pods there are (0: as
// it would), until the returned func is called.
func SetFinalWorkers(n int) (restore func()) {
	old := testFinalWorkers
	testFinalWorkers = n
	return func() { testFinalWorkers = old }
}
