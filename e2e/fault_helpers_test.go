//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// faultRun starts a fault test: it skips without harness.FaultsEnv, makes a run in a fresh
// namespace that keeps its evidence if the test fails, and makes sure the API server runs and
// answers whatever the test did to it, and the scheduler places pods again (see WaitSchedules).
func faultRun(t *testing.T, name, podPrefix string) *harness.Run {
	t.Helper()
	if !harness.FaultsAllowed() {
		t.Skip(harness.ErrNoFaults)
	}
	t.Cleanup(func() {
		if err := env.EnsureAPIServer(); err != nil {
			t.Errorf("the API server after the test: %v", err)
			return
		}
		d, err := env.WaitSchedules(context.Background(), 3*time.Minute)
		if err != nil {
			t.Errorf("the cluster after the test schedules no pod: %v", err)
		}
		t.Logf("the cluster scheduled a pod %s after the test", d.Round(10*time.Millisecond))
	})
	r, err := env.NewRun(t.Context(), name, podPrefix)
	if err != nil {
		t.Fatal(err)
	}
	keep(t, r)
	return r
}

// notesOf reads a recording as replay does and returns its notes, by reason.
func notesOf(t *testing.T, path string) map[watch.NoteReason][]*watch.Note {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, items, _, err := recfile.ReadAll(f, path)
	if err != nil {
		t.Fatalf("the recording does not read back: %v", err)
	}
	out := map[watch.NoteReason][]*watch.Note{}
	for _, it := range items {
		if n, ok := it.Object.(*watch.Note); ok {
			out[n.Reason] = append(out[n.Reason], n)
		}
	}
	return out
}

// ofResource are the notes about one watch.
func ofResource(notes []*watch.Note, resource string) []*watch.Note {
	var out []*watch.Note
	for _, n := range notes {
		if n.Resource == resource {
			out = append(out, n)
		}
	}
	return out
}

// checkNotesReplayed checks that the replay's JSON has the text of every note of the recording.
func checkNotesReplayed(t *testing.T, r *harness.Run, notes map[watch.NoteReason][]*watch.Note) {
	t.Helper()
	for _, ns := range notes {
		for _, n := range ns {
			if !slices.Contains(r.Timeline.Notes, n.Text()) {
				t.Errorf("the replay's notes lack %q; they are:\n%s", n.Text(), strings.Join(r.Timeline.Notes, "\n"))
			}
		}
	}
}

// checkNoDuplicates fails for a lifecycle milestone that a lane has twice for one run, or a
// once-only milestone of the pod's lane seen twice: what a relist must not cause.
func checkNoDuplicates(t *testing.T, p *timeline.Pod) {
	t.Helper()
	once := map[timeline.MilestoneKind]bool{timeline.MCreated: true, timeline.MStart: true, timeline.MRestart: true,
		timeline.MStarted: true, timeline.MExit: true, timeline.MScheduled: true, timeline.MInitialized: true,
		timeline.MDeleting: true, timeline.MDeleted: true, timeline.MPhase: true}
	lanes := []string{""}
	for _, c := range p.Containers {
		lanes = append(lanes, c.Name)
	}
	for _, lane := range lanes {
		seen := map[string]int{}
		for _, m := range harness.Milestones(p, lane) {
			if once[m.Kind] {
				seen[fmt.Sprintf("%s #%d", m.Kind, m.Attempt)]++
			}
		}
		for k, n := range seen {
			if n > 1 {
				t.Errorf("lane %q has %s %d times: %s", lane, k, n, kinds(p, lane))
			}
		}
	}
}

// apiContainer is what the API says of a container of a pod now.
type apiContainer struct {
	RestartCount int32
	Waiting      string // the waiting reason, if waiting
	Terminated   bool   // its state is terminated: it exited and has not been restarted
}

// containerNow asks the API for a container's restart count and waiting reason.
func containerNow(ctx context.Context, r *harness.Run, pod, container string) (apiContainer, error) {
	out, err := r.Kubectl(ctx, "get", "pod", pod, "-o", "json")
	if err != nil {
		return apiContainer{}, err
	}
	var p struct {
		Status struct {
			InitContainerStatuses, ContainerStatuses []struct {
				Name         string
				RestartCount int32
				State        struct {
					Waiting    *struct{ Reason string }
					Terminated *struct{}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		return apiContainer{}, err
	}
	for _, s := range append(p.Status.InitContainerStatuses, p.Status.ContainerStatuses...) {
		if s.Name == container {
			c := apiContainer{RestartCount: s.RestartCount, Terminated: s.State.Terminated != nil}
			if s.State.Waiting != nil {
				c.Waiting = s.State.Waiting.Reason
			}
			return c, nil
		}
	}
	return apiContainer{}, fmt.Errorf("pod %s has no status of container %s yet", pod, container)
}

// waitCrashLoopSettled waits, up to limit, until a crash-looping container is between two runs
// (back-off) and the API's restart count is the last run the runtime logged, which has exited:
// deleted then, the pod leaves the kubelet's count and the API's the same. It returns that count.
// Between two runs the API shows the container terminated or waiting in CrashLoopBackOff: the
// kubelet of 1.37 showed a native sidecar's waiting reason only in the moment before it
// restarted it, so waiting alone was rarely seen within a poll (once, not in 4 minutes). For the
// same reason "terminated" may still read in the moment before the next run: it settles only in
// the first half of the back-off after run n >= 1 exited (10 s doubling per restart, so at least
// 5 s), measured from the runtime's stamp of its exit line. Settled at the end of a back-off, a
// run once started between the check and the deletion, and the count read one short.
func waitCrashLoopSettled(t *testing.T, r *harness.Run, pod, container, exitLine string, limit time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(limit)
	var last string
	for {
		runs := r.TruthNow().Restarts(container)
		if len(runs) > 0 {
			n := runs[len(runs)-1]
			exit, exited := r.TruthNow().Find(container, n, exitLine)
			c, err := containerNow(t.Context(), r, pod, container)
			early := n >= 1 && time.Since(exit.At) < backOffHalf(n)
			switch {
			case err != nil:
				last = err.Error()
			case exited && early && int(c.RestartCount) == n && (c.Waiting == "CrashLoopBackOff" || c.Terminated):
				return n
			default:
				last = "runtime's last run " + strconv.Itoa(n) + fmt.Sprintf(" (exited: %v, early in its back-off: %v), API: restartCount %d, waiting %q, terminated %v", exited, early, c.RestartCount, c.Waiting, c.Terminated)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never settled between two runs within %s: %s", container, limit, last)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// lastRun is the restart count of a container's last run in the runtime's log files once the
// run is over; settled is what waitCrashLoopSettled returned. They differ only if the kubelet
// started a run after the test saw it settled, which it logs.
func lastRun(t *testing.T, r *harness.Run, container string, settled int) int {
	t.Helper()
	runs := r.Truth.Restarts(container)
	if len(runs) == 0 {
		t.Fatalf("the runtime's log files have no run of %s", container)
	}
	n := runs[len(runs)-1]
	if n != settled {
		t.Logf("the kubelet started run %d of %s after the test saw it settled at run %d", n, container, settled)
	}
	return n
}

// backOffHalf is half the kubelet's crash back-off after run n (n >= 1) exits: 10 s doubling
// with each restart, capped at 300 s.
func backOffHalf(n int) time.Duration {
	d := 10 * time.Second << min(n-1, 5)
	return min(d, 300*time.Second) / 2
}

// lines are the lines of s that contain sub.
func lines(s, sub string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return out
}
