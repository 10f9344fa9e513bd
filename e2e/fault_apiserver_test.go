//go:build e2e

package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestFaultAPIServerKilled: the API server is killed (kill -9) and started again five times
// while `sidecar-top record` records a crash-looping native sidecar. The recorder survives,
// says each time in its output and in the recording (a note a replay reads) when it was not
// watching and when it watched again, misses no Event the API still has, and its final timeline
// counts as many restarts as the kubelet made (the runtime's log files).
func TestFaultAPIServerKilled(t *testing.T) {
	r := faultRun(t, "fault-kill", "crashing-sidecar")
	ctx := t.Context()
	if err := r.StartRecord(ctx, "pod/crashing-sidecar", "--until", "deleted", "--timeout", "8m"); err != nil {
		t.Fatal(err)
	}
	if err := r.Apply(ctx, "crashing-sidecar"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.WaitLine(ctx, "sidecar", 0, "sidecar start", time.Minute); err != nil {
		t.Fatal(err)
	}
	const kills = 5
	var outages []harness.Outage
	for i := range kills {
		o, err := env.RestartAPIServer(ctx, "KILL", 2*time.Second, t.Logf)
		if err != nil {
			t.Fatalf("kill %d: %v", i+1, err)
		}
		outages = append(outages, o)
		time.Sleep(8 * time.Second) // the watch resumes; the crash loop goes on
	}
	n := waitCrashLoopSettled(t, r, "crashing-sidecar", "sidecar", "sidecar crashing", 4*time.Minute)
	if err := r.Delete(ctx, "crashing-sidecar"); err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(ctx, 0, 2*time.Minute); err != nil {
		t.Fatalf("the recorder did not survive: %v", err)
	}
	checkInvariants(t, r.Timeline)
	p := onePod(t, r)

	// It says when it was not watching, and when it watched again: in the recording... Outages
	// close together may read as one: client-go's reflector backs off (0.8 s doubling to 30 s,
	// reset after 2 minutes without failure), so after a few kills in a row it may not watch
	// again before the next one. Every outage lies in a stretch the recorder says it did not
	// watch, and every such stretch began in an outage and ended after it.
	notes := notesOf(t, r.Record.Path)
	lost, back := ofResource(notes[watch.WatchLost], "pods"), ofResource(notes[watch.WatchResumed], "pods")
	if len(lost) == 0 || len(lost) > kills || len(back) != len(lost) {
		t.Fatalf("%d outages, but %d WatchLost and %d WatchResumed notes of pods; output:\n%s", kills, len(lost), len(back), r.Record.Stdout())
	}
	for i := range back {
		t.Logf("the recorder did not watch pods from %s to %s (%s)", clock(back[i].Since), clock(back[i].Until),
			back[i].Until.Sub(back[i].Since).Round(10*time.Millisecond))
		if !back[i].Since.Equal(lost[i].Since) {
			t.Errorf("not watching since %s, but watching again after a stretch from %s", clock(lost[i].Since), clock(back[i].Since))
		}
		if !slices.ContainsFunc(outages, func(o harness.Outage) bool {
			return !back[i].Since.Before(o.From.Add(-time.Second)) && !back[i].Since.After(o.To)
		}) {
			t.Errorf("the recorder says it stopped watching at %s, in no outage (%v)", clock(back[i].Since), outages)
		}
	}
	for i, o := range outages {
		t.Logf("outage %d: %s to %s", i+1, clock(o.From), clock(o.To))
		// o.To is when the harness saw /readyz answer, polling: a watch may be served before; the
		// server was down 2 s at least.
		if !slices.ContainsFunc(back, func(n *watch.Note) bool {
			return !n.Since.After(o.From.Add(time.Second)) && n.Until.After(o.From.Add(2*time.Second)) && !n.Until.After(o.To.Add(15*time.Second))
		}) {
			t.Errorf("outage %d from %s to %s lies in no stretch the recorder did not watch, ending within 15 s of it", i+1, clock(o.From), clock(o.To))
		}
	}
	// ... in its output, where the plain lines go ...
	for _, want := range []string{"note: not watching pods since ", "note: not watching pods from "} {
		if got := lines(r.Record.Stdout(), want); len(got) != len(lost) {
			t.Errorf("%d output lines %q, want %d:\n%s", len(got), want, len(lost), r.Record.Stdout())
		}
	}
	// ... and a replay reads them.
	checkNotesReplayed(t, r, notes)
	// A watch that resumes from a version the restarted server's watch cache does not hold
	// expires (410 Gone) and is listed again: it happens in some outages, as the server's list
	// and its cache race, and cannot be caused at will. When it did, the milestones below are
	// still each once.
	t.Logf("%d of the %d outages expired the pods watch (410) and had it listed again", len(ofResource(notes[watch.WatchExpired], "pods")), kills)

	// Every Event the API still has of the pod, made before the recorder stopped, is recorded.
	recorded := map[string]bool{}
	for _, e := range r.Timeline.Events {
		recorded[e.Reason+" "+e.Message] = true
	}
	out, err := r.Kubectl(ctx, "get", "events", "--field-selector", "involvedObject.name=crashing-sidecar",
		"-o", `jsonpath={range .items[*]}{.metadata.creationTimestamp}{"\t"}{.reason}{"\t"}{.message}{"\n"}{end}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.SplitN(l, "\t", 3)
		if len(f) < 3 {
			continue
		}
		at, err := time.Parse(time.RFC3339, f[0])
		if err == nil && at.Before(r.Record.Ended.Add(-2*time.Second)) && !recorded[f[1]+" "+f[2]] {
			t.Errorf("the API has the Event %s %q (created %s), the recording does not", f[1], f[2], f[0])
		}
	}

	// The timeline counts the kubelet's restarts, each with its run, and none twice.
	side := harness.FindContainer(p, "sidecar")
	if side == nil {
		t.Fatalf("no sidecar lane: %s", kinds(p, ""))
	}
	if want := lastRun(t, r, "sidecar", n); int(side.RestartCount) != want {
		t.Errorf("the timeline counts %d restarts of the sidecar, the kubelet %d (runs %v in the runtime's log files)",
			side.RestartCount, want, r.Truth.Restarts("sidecar"))
	}
	for _, k := range r.Truth.Restarts("sidecar") {
		if k > 0 && harness.FindMilestone(p, "sidecar", timeline.MRestart, int32(k)) == nil {
			t.Errorf("the runtime logged the sidecar's run %d, the timeline has no restart #%d: %s", k, k, kinds(p, "sidecar"))
		}
	}
	checkNoDuplicates(t, p)
}

// TestFaultAPIServerStopped: the API server is stopped (SIGSTOP) for 20 s while a crash-looping
// sidecar is recorded. Nothing hangs: the recorder says, as the silence grows, that what it
// shows is stale, says when the server answers again, writes a note of the silence, and ends
// on its --until with the kubelet's restart count. The live view of the pod and the namespace's
// table (issue 38: a cluster that drops the watch) both say they are stale.
func TestFaultAPIServerStopped(t *testing.T) {
	r := faultRun(t, "fault-stop", "crashing-sidecar")
	ctx := t.Context()
	if err := r.StartRecord(ctx, "pod/crashing-sidecar", "--until", "deleted", "--timeout", "6m"); err != nil {
		t.Fatal(err)
	}
	if err := r.Apply(ctx, "crashing-sidecar"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.WaitLine(ctx, "sidecar", 0, "sidecar crashing", time.Minute); err != nil {
		t.Fatal(err)
	}
	view := startView(t, r, "pod/crashing-sidecar")
	table := startViewOf(t, r, "", "crashing-sidecar") // the namespace's fleet table
	o, err := env.PauseAPIServer(ctx, 20*time.Second, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	screen := view.stop(t, 8*time.Second) // the view after the server answers again
	tableScreen := table.stop(t, 0)
	n := waitCrashLoopSettled(t, r, "crashing-sidecar", "sidecar", "sidecar crashing", 4*time.Minute)
	if err := r.Delete(ctx, "crashing-sidecar"); err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(ctx, 0, 2*time.Minute); err != nil {
		t.Fatalf("the recorder hung or failed: %v", err)
	}
	checkInvariants(t, r.Timeline)
	p := onePod(t, r)

	// Plain output says it is stale as the silence doubles, then that the server answers.
	stderr := r.Record.Stderr()
	for _, want := range []string{
		"sidecar-top: warning: no answer from the API server for 5s: what is shown is stale",
		"sidecar-top: warning: no answer from the API server for 10s: what is shown is stale",
		"sidecar-top: the API server answers again",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the recorder's standard error lacks %q:\n%s", want, stderr)
		}
	}
	// The live view said it in its header.
	if !strings.Contains(screen, "no answer from the API server for 1") {
		t.Errorf("the live view never said it had no answer for 10 s or more; what it drew (escapes removed):\n%s", tail(screen, 3000))
	}
	if !strings.Contains(tableScreen, "no answer from the API server for 1") {
		t.Errorf("the namespace's table never said it had no answer for 10 s or more; what it drew (escapes removed):\n%s", tail(tableScreen, 3000))
	}
	// The recording has a note of the silence, which a replay reads.
	notes := notesOf(t, r.Record.Path)
	silent := notes[watch.NoAnswer]
	if len(silent) != 1 {
		t.Fatalf("%d NoAnswer notes, want 1 for the %s pause: %+v", len(silent), o.To.Sub(o.From).Round(time.Second), silent)
	}
	s := silent[0]
	t.Logf("paused from %s to %s; the recorder: no answer from %s to %s", clock(o.From), clock(o.To), clock(s.Since), clock(s.Until))
	if s.Until.Sub(s.Since) < 15*time.Second || s.Since.After(o.From.Add(time.Second)) || s.Until.Before(o.To.Add(-time.Second)) {
		t.Errorf("the note's silence from %s to %s does not cover the pause from %s to %s", clock(s.Since), clock(s.Until), clock(o.From), clock(o.To))
	}
	if got := lines(r.Record.Stdout(), "note: no answer from the API server from "); len(got) != 1 {
		t.Errorf("output lines of the silence: %q", got)
	}
	checkNotesReplayed(t, r, notes)
	if side, want := harness.FindContainer(p, "sidecar"), lastRun(t, r, "sidecar", n); side == nil || int(side.RestartCount) != want {
		t.Errorf("the timeline's sidecar %+v, want %d restarts as the kubelet made", side, want)
	}
	checkNoDuplicates(t, p)
}
