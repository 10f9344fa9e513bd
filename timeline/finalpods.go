package timeline

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// finalPods is podTimelines for Final: each pod's facts are let go of as soon as it is derived,
// and the pods are derived on every core. Nothing a pod's derivation reads or writes is shared
// with another pod's (its facts are its own; Events are copied into it as they are filed), so
// each worker derives with a deriver of its own, and what the derivers noted is gathered into
// the Builder's after: the timeline is the same, pod for pod, whatever the number of workers
// (TestFinalOnEveryCore). At the end of replay -o json of a 2,200-pod Job's recording (as it
// was made before each pod had its Events) this was an eighth of the run's wall time, on one
// core while the other idled: 66-79 ms, now 48-64 on two cores (not half: the pods it makes are fresh memory, and faulting it in, and collecting
// under the replay's memory limit, take as long as deriving). replay -o json has since taken its
// pods from a Stream, which derives each on the goroutine that writes it (the same derivers, each
// worker with its own).
func (b *Builder) finalPods() Seq[*Pod] {
	podList := b.endFacts()
	out := make([]*Pod, len(podList))
	// The pods are handed out a batch at a time, in order, to whichever worker is free; this
	// goroutine is one of them, and the only one when there are few pods.
	var next atomic.Int64
	work := func(d *deriver) {
		for {
			from := int(next.Add(finalBatch)) - finalBatch
			if from >= len(podList) {
				return
			}
			for i := from; i < min(from+finalBatch, len(podList)); i++ {
				b.finalPod(d, podList, out, i)
			}
		}
	}
	others := make([]*deriver, max(finalWorkers(len(podList))-1, 0))
	var wg sync.WaitGroup
	for k := range others {
		others[k] = &deriver{final: true}
		wg.Go(func() { work(others[k]) })
	}
	work(&b.d)
	wg.Wait()
	b.gather(others)
	return Seq[*Pod]{tail: out, n: len(out)} // out is the list's own
}

// endFacts is the pod list, for the end: the Builder lets go of everything else that reaches a
// pod's facts (the Events are filed), so a pod's facts go once the list lets go of them.
func (b *Builder) endFacts() []*podState {
	podList := b.podList
	b.pods, b.byName, b.podList, b.events, b.waiting, b.waitFor, b.touched = nil, nil, nil, nil, nil, nil, nil
	b.d.final = true
	return podList
}

// gather adds what other derivers of the end noted to the Builder's deriver.
func (b *Builder) gather(others []*deriver) {
	for _, d := range others {
		b.d.skew = b.d.skew || d.skew
		for _, s := range d.notes {
			b.d.note(s) // sorted when the snapshot takes them
		}
	}
}

// finalPod derives pod i of list with d into out[i] and lets go of its facts.
func (b *Builder) finalPod(d *deriver, list []*podState, out []*Pod, i int) {
	derive(d, list[i])
	out[i] = list[i].out
	list[i] = nil
	if testHookFinalPod != nil {
		testHookFinalPod(i)
	}
}

// finalBatch is how many pods a worker of finalPods takes at a time: enough that handing them
// out costs nothing beside deriving them, few enough that the workers end together.
const finalBatch = 16

// finalWorkers is how many goroutines derive n pods at the end: one per core, each with at
// least a few batches to do; tests set testFinalWorkers.
func finalWorkers(n int) int {
	if testFinalWorkers > 0 {
		return testFinalWorkers
	}
	return min(runtime.GOMAXPROCS(0), n/(4*finalBatch))
}

// testFinalWorkers, when positive, is the number of workers finalPods uses, however many pods.
var testFinalWorkers int
