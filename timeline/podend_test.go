package timeline_test

import (
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// A native sidecar that exits while its pod ends was signalled by the kubelet, which nobody
// watching the API sees: its SIGTERM is inferred, whichever way the pod ended, no sooner than
// the API shows the pod ending and no later than the sidecar's exit.

// endingPod is the pod of these tests at one observation: a sidecar "proxy", an init container
// "setup" after it and an app, with restartPolicy policy, in phase and reason, and those of the
// containers given (the rest have no status yet).
func endingPod(policy, phase, reason string, cs ...timeline.ContainerObservation) *timeline.PodObservation {
	byName := map[string]timeline.ContainerObservation{}
	for _, c := range cs {
		byName[c.Name] = c
	}
	var out []timeline.ContainerObservation
	for _, c := range []timeline.ContainerObservation{{Name: "proxy", Kind: timeline.KindSidecar},
		{Name: "setup", Kind: timeline.KindInit}, {Name: "app", Kind: timeline.KindApp}} {
		if s, ok := byName[c.Name]; ok {
			c = s
		}
		out = append(out, c)
	}
	p := pod("a", out...)
	p.RestartPolicy, p.Phase, p.Reason = policy, phase, reason
	return p
}

// stopCase is one way a pod ends: its observations (at their receive times), the instant the
// kubelet signalled the sidecar, and the earliest the API shows the pod ending.
type stopCase struct {
	name     string
	obs      func(b *timeline.Builder)
	signal   float64 // the truth
	notFirst float64 // no bound may begin before it
}

func stopCases() []stopCase {
	proxy := func(exit float64) timeline.ContainerObservation {
		if exit == 0 {
			return running("proxy", timeline.KindSidecar, 1, true, "p1")
		}
		return exited("proxy", timeline.KindSidecar, 1, exit, 0, "p1")
	}
	setupDone := exited("setup", timeline.KindInit, 2, 3, 0, "s1")
	appUp := running("app", timeline.KindApp, 4, true, "a1")
	// Up: the sidecar and the app run, the init container done.
	up := func(b *timeline.Builder, policy string) {
		apply(b, 1.5, timeline.Observation{Type: timeline.Added, Pod: endingPod(policy, "Pending", "", proxy(0))})
		apply(b, 4.5, timeline.Observation{Pod: endingPod(policy, "Running", "", proxy(0), setupDone, appUp)})
	}
	return []stopCase{
		{"init container failed, restartPolicy Never", func(b *timeline.Builder) {
			apply(b, 1.5, timeline.Observation{Type: timeline.Added, Pod: endingPod("Never", "Pending", "", proxy(0))})
			apply(b, 3.2, timeline.Observation{Pod: endingPod("Never", "Pending", "", proxy(0), exited("setup", timeline.KindInit, 2, 3, 1, "s1"))})
			apply(b, 7.3, timeline.Observation{Pod: endingPod("Never", "Failed", "", proxy(7), exited("setup", timeline.KindInit, 2, 3, 1, "s1"))})
		}, 4.1, 3},
		{"init container failed, Killing seen", func(b *timeline.Builder) {
			apply(b, 1.5, timeline.Observation{Type: timeline.Added, Pod: endingPod("Never", "Pending", "", proxy(0))})
			apply(b, 3.2, timeline.Observation{Pod: endingPod("Never", "Pending", "", proxy(0), exited("setup", timeline.KindInit, 2, 3, 1, "s1"))})
			apply(b, 4.2, timeline.Observation{Event: killing("a", "proxy", "initContainers", 4.1)})
			apply(b, 7.3, timeline.Observation{Pod: endingPod("Never", "Failed", "", proxy(7), exited("setup", timeline.KindInit, 2, 3, 1, "s1"))})
		}, 4.12, 3},
		{"Job completion", func(b *timeline.Builder) {
			up(b, "Never")
			apply(b, 9.3, timeline.Observation{Pod: endingPod("Never", "Running", "", proxy(0), setupDone, exited("app", timeline.KindApp, 4, 9, 0, "a1"))})
			apply(b, 11.3, timeline.Observation{Pod: endingPod("Never", "Succeeded", "", proxy(11), setupDone, exited("app", timeline.KindApp, 4, 9, 0, "a1"))})
		}, 10.2, 9},
		{"Job completion, restartPolicy OnFailure", func(b *timeline.Builder) {
			up(b, "OnFailure")
			apply(b, 11.3, timeline.Observation{Pod: endingPod("OnFailure", "Succeeded", "", proxy(11), setupDone, exited("app", timeline.KindApp, 4, 9, 0, "a1"))})
		}, 10.2, 9},
		{"Job failure", func(b *timeline.Builder) {
			up(b, "Never")
			apply(b, 11.3, timeline.Observation{Pod: endingPod("Never", "Failed", "", proxy(11), setupDone, exited("app", timeline.KindApp, 4, 9, 1, "a1"))})
		}, 10.2, 9},
		{"activeDeadlineSeconds", func(b *timeline.Builder) {
			up(b, "Always")
			apply(b, 12.3, timeline.Observation{Pod: endingPod("Always", "Failed", "DeadlineExceeded", proxy(12), setupDone,
				exited("app", timeline.KindApp, 4, 10, 143, "a1"))})
		}, 11.1, 10},
		{"eviction by the kubelet", func(b *timeline.Builder) {
			up(b, "Always")
			apply(b, 10.2, timeline.Observation{Event: killing("a", "app", "containers", 10.1)})
			apply(b, 10.2, timeline.Observation{Event: killing("a", "proxy", "initContainers", 10.11)})
			apply(b, 13.3, timeline.Observation{Pod: endingPod("Always", "Failed", "Evicted", proxy(13), setupDone,
				exited("app", timeline.KindApp, 4, 11, 143, "a1"))})
		}, 12.2, 10.1},
		{"deletion (and the Eviction API's), no Killing seen", func(b *timeline.Builder) {
			up(b, "Always")
			del := endingPod("Always", "Running", "", proxy(0), setupDone, appUp)
			d, grace := sec(40), int64(30)
			del.Deletion, del.DeletionGrace = &d, &grace
			apply(b, 10.2, timeline.Observation{Pod: del})
			done := endingPod("Always", "Succeeded", "", proxy(13), setupDone, exited("app", timeline.KindApp, 4, 11, 0, "a1"))
			done.Deletion, done.DeletionGrace = &d, &grace
			apply(b, 13.3, timeline.Observation{Pod: done})
		}, 12.2, 9},
	}
}

// TestSidecarSignalledAsThePodEnds: in every way a pod ends, the sidecar that exited then has an
// inferred SIGTERM whose bounds hold the instant it was signalled, not before the pod began to
// end, not after the exit.
func TestSidecarSignalledAsThePodEnds(t *testing.T) {
	for _, c := range stopCases() {
		t.Run(c.name, func(t *testing.T) {
			b := timeline.NewBuilder()
			c.obs(b)
			p := b.Snapshot().Pods.At(0)
			sig, exit := p.Find("proxy", timeline.MSigterm, 0), find(t, p, "proxy", timeline.MExit, 0)
			if sig == nil {
				t.Fatalf("no SIGTERM of the sidecar; its exit at %s", exit.At.Format("05.000"))
			}
			if sig.Source != timeline.SourceInferred {
				t.Errorf("source %s, want inferred", sig.Source)
			}
			truth := sec(c.signal)
			if sig.Earliest.Before(sec(c.notFirst)) || sig.Latest.After(exit.Latest) || truth.Before(sig.Earliest) || truth.After(sig.Latest) {
				t.Errorf("SIGTERM in [%s, %s], want within [%s, exit %s] holding %s", sig.Earliest.Format("05.000"), sig.Latest.Format("05.000"),
					sec(c.notFirst).Format("05.000"), exit.Latest.Format("05.000"), truth.Format("05.000"))
			}
			if sig.At.Before(sig.Earliest) || sig.At.After(sig.Latest) || exit.At.Before(sig.At) {
				t.Errorf("SIGTERM at %s in [%s, %s], exit at %s", sig.At.Format("05.000"), sig.Earliest.Format("05.000"),
					sig.Latest.Format("05.000"), exit.At.Format("05.000"))
			}
		})
	}
}

// TestSidecarNotSignalled: a sidecar that exited before its pod ended, or in a pod that goes
// on, exited on its own: no SIGTERM is inferred.
func TestSidecarNotSignalled(t *testing.T) {
	for _, c := range []struct {
		name string
		last *timeline.PodObservation
	}{
		{"exited before the init container failed", endingPod("Never", "Failed", "",
			exited("proxy", timeline.KindSidecar, 1, 2, 1, "p1"), exited("setup", timeline.KindInit, 2, 5, 1, "s1"))},
		{"a pod that goes on", endingPod("Always", "Running", "",
			exited("proxy", timeline.KindSidecar, 1, 2, 1, "p1"), running("setup", timeline.KindInit, 1, false, "s1"))},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := timeline.NewBuilder()
			apply(b, 1.5, timeline.Observation{Type: timeline.Added, Pod: endingPod(c.last.RestartPolicy, "Pending", "",
				running("proxy", timeline.KindSidecar, 1, true, "p1"))})
			apply(b, 6.3, timeline.Observation{Pod: c.last})
			if m := b.Snapshot().Pods.At(0).Find("proxy", timeline.MSigterm, 0); m != nil {
				t.Errorf("a SIGTERM in [%s, %s]: %+v", m.Earliest.Format("05.000"), m.Latest.Format("05.000"), m.Evidence)
			}
		})
	}
}
