package timeline

import "testing"

// TestStateKeyCoversStateText: two statuses with the same stateKey have the same state phrase,
// over every combination of what the phrase reads, so the lane's cached phrase is never stale.
func TestStateKeyCoversStateText(t *testing.T) {
	yes, no := true, false
	var all []*ContainerStatus
	all = append(all, nil)
	for _, w := range []*Waiting{nil, {Reason: "CrashLoopBackOff"}, {Reason: "ContainerCreating", Message: "m"}} {
		for _, r := range []*Running{nil, {ContainerID: "c"}} {
			for _, term := range []*Terminated{nil, {ExitCode: 0, Reason: "Completed"}, {ExitCode: 1, Reason: "Error"},
				{ExitCode: 137}, {ExitCode: 1, Signal: 15}, {ExitCode: 2}} {
				for _, ready := range []bool{false, true} {
					for _, started := range []*bool{nil, &no, &yes} {
						all = append(all, &ContainerStatus{Waiting: w, Running: r, Terminated: term, Ready: ready, Started: started})
					}
				}
			}
		}
	}
	seen := map[stateKey]string{}
	for _, cs := range all {
		k, text := stateKeyOf(cs), stateText(cs)
		if was, ok := seen[k]; ok && was != text {
			t.Fatalf("key %+v gives %q and %q", k, was, text)
		}
		seen[k] = text
	}
	if len(seen) < 20 {
		t.Fatalf("only %d keys: the cases do not vary what the phrase reads", len(seen))
	}
}
