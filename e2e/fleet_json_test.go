//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/fleet"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// seedFindings are the findings the seed pods must show, each on its pod's row (by name, or a
// Job's pod by its Job's name and a dash) and about that container, and on no other row.
var seedFindings = map[timeline.FindingID]struct{ pod, container string }{
	timeline.FindingCrashLoop:            {podCrash, "sidecar"},
	timeline.FindingClassicSidecarBlocks: {jobClassic + "-", "sidecar"},
	timeline.FindingSlowStartup:          {podSlow, "sidecar"},
	timeline.FindingKilledAfterGrace:     {podDrainKilled, "app"},
}

// fleetJSON runs sidecar-top with args (and -o json) and decodes its document.
func fleetJSON(t *testing.T, args ...string) fleet.Document {
	t.Helper()
	code, stdout, stderr := fleetCmd(t.Context(), append(args, "-o", "json")...)
	if code != 0 {
		t.Fatalf("sidecar-top %s -o json: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	var d fleet.Document
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatalf("sidecar-top %s -o json: %v:\n%s", strings.Join(args, " "), err, tail(stdout, 2000))
	}
	if d.Kind != "SidecarTopFleet" || d.Counts.Shown != len(d.Rows) {
		t.Errorf("the document's kind %q, counts %+v for %d rows", d.Kind, d.Counts, len(d.Rows))
	}
	return d
}

// checkFleetJSON: -A -l SEL -o json (every pod, --sidecars-only=false) has the run's pods and
// no other, each with kubectl's STATUS, its workload and shape, its findings and its gaps held
// to the truth; without --sidecars-only=false -A hides the plain pods; -n NS has its namespace's.
func checkFleetJSON(t *testing.T, f *harness.Fleet) {
	d := settledDocument(t, f)
	rows := map[podKey]fleet.RowJSON{}
	for _, r := range d.Rows {
		rows[podKey{r.Namespace, r.Name}] = r
	}
	plain := 0
	for k, r := range rows {
		owner := ""
		if r.Owner != nil {
			owner = r.Owner.String()
		}
		if want := ownerWant(k.Name); owner != want {
			t.Errorf("%s: OWNER %q, want %q", k, owner, want)
		}
		if want := shapeWant(k.Name); r.Sidecar != want {
			t.Errorf("%s: sidecar %q, want %q", k, r.Sidecar, want)
		}
		if r.Sidecar == "none" {
			plain++
			if len(r.Findings) > 0 {
				t.Errorf("%s, a plain pod, has findings:\n%s", k, findingTexts(r.Findings))
			}
		}
	}
	if plain < 30 {
		t.Errorf("%d plain pods in the document, want the 33 of the manifests less none", plain)
	}
	checkSeedFindings(t, d.Rows)
	checkJSONGaps(t, f, d.Rows)

	hidden := fleetJSON(t, "-A", "-l", f.Selector())
	if c := hidden.Counts; c.Hidden != plain || c.Shown != len(d.Rows)-plain || c.Pods != len(d.Rows) {
		t.Errorf("-A hides the plain pods by default: counts %+v, want %d pods, %d hidden, %d shown", c, len(d.Rows), plain, len(d.Rows)-plain)
	}
	for _, r := range hidden.Rows {
		if r.Sidecar == "none" {
			t.Errorf("-A (sidecars only by default) shows %s/%s, a plain pod", r.Namespace, r.Name)
		}
	}
	ns := f.Namespaces["seed"]
	seed := fleetJSON(t, "-n", ns)
	var got, want []string
	for _, r := range seed.Rows {
		got = append(got, r.Namespace+"/"+r.Name)
	}
	for k := range rows {
		if k.Namespace == ns {
			want = append(want, k.String())
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if seed.Scope != "namespace "+ns || !slices.Equal(got, want) {
		t.Errorf("-n %s -o json: scope %q, pods %v; want scope %q, pods %v", ns, seed.Scope, got, "namespace "+ns, want)
	}
}

// settledDocument takes -A -l SEL --sidecars-only=false -o json between two readings of
// kubectl's STATUS column, up to 5 times: a pod whose STATUS both readings agree on must have it
// in the document; a pod that moved in between is compared at another try.
func settledDocument(t *testing.T, f *harness.Fleet) fleet.Document {
	t.Helper()
	compared := map[podKey]bool{}
	var d fleet.Document
	for try := 1; try <= 5; try++ {
		before := kubectlStatuses(t, f)
		d = fleetJSON(t, "-A", "-l", f.Selector(), "--sidecars-only=false")
		after := kubectlStatuses(t, f)
		got := map[podKey]string{}
		for _, r := range d.Rows {
			got[podKey{r.Namespace, r.Name}] = r.Status
		}
		if !maps.Equal(mapKeys(before), mapKeys(after)) {
			t.Logf("try %d: kubectl's pods changed between its readings", try)
			continue
		}
		if !maps.Equal(mapKeys(got), mapKeys(before)) {
			t.Fatalf("the document's pods are not kubectl's:\n%s", diffKeys(got, before))
		}
		moved := 0
		for k, s := range before {
			if after[k] != s {
				moved++
				continue
			}
			if got[k] != s {
				t.Errorf("%s: STATUS %q, kubectl's %q (before and after)", k, got[k], s)
			}
			compared[k] = true
		}
		t.Logf("try %d: %d pods, STATUS compared for %d, %d moved meanwhile", try, len(before), len(before)-moved, moved)
		if len(compared) == len(before) {
			return d
		}
	}
	t.Fatalf("after 5 tries the STATUS of %d pods was never the same in two readings of kubectl", len(d.Rows)-len(compared))
	return d
}

func mapKeys(m map[podKey]string) map[podKey]bool {
	out := map[podKey]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// diffKeys says which pods one map has and the other lacks.
func diffKeys(got, want map[podKey]string) string {
	var s []string
	for k := range got {
		if _, ok := want[k]; !ok {
			s = append(s, "+ "+k.String())
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			s = append(s, "- "+k.String())
		}
	}
	slices.Sort(s)
	return strings.Join(s, "\n")
}

// checkSeedFindings: each seed finding is on its pod's row, about its container, and on no other.
func checkSeedFindings(t *testing.T, rows []fleet.RowJSON) {
	t.Helper()
	for id, want := range seedFindings {
		var on []string
		for _, r := range rows {
			for _, fd := range r.Findings {
				if fd.ID != id {
					continue
				}
				on = append(on, r.Name)
				if !strings.HasPrefix(r.Name, want.pod) || fd.Container != want.container {
					t.Errorf("finding %s on %s/%s about %q, want only on pod %s about %q: %s", id, r.Namespace, r.Name,
						fd.Container, want.pod, want.container, fd.Text)
				}
			}
		}
		if len(on) != 1 {
			t.Errorf("finding %s is on %d rows %v, want on %s's only%s", id, len(on), on, want.pod, map[bool]string{
				true: " (it rests on the Killing Event: was the document printed before the Events were listed?)"}[id == timeline.FindingKilledAfterGrace])
		}
	}
}

// gapEnds are, by the pod's name (its prefix for a Deployment's or Job's), its native sidecar,
// its app, and the line that bounds the sidecar's started when a startup probe gates it.
var gapEnds = []struct{ pod, sidecar, app, startedLine, appLast string }{
	{podSlow, "sidecar", "app", "sidecar ready-file", ""},
	{podCrash, "sidecar", "app", "", ""},
	{jobNative + "-", "sidecar", "main", "", "main done"},
	{podDrainOK, "proxy", "app", "", "app exiting"},
	{podDrainKilled, "proxy", "app", "", ""},
	{"mesh-", "proxy", "app", "", ""},
}

// checkJSONGaps holds every gap of every row to the truth: sidecar→app against the runtime's
// starts (and the probe's file), app exit → sidecar exit against containerd's exits, exactly.
// A gap the test has no truth for fails: every gap shown is checked.
func checkJSONGaps(t *testing.T, f *harness.Fleet, rows []fleet.RowJSON) {
	t.Helper()
	var checked []string
	for _, r := range rows {
		i := slices.IndexFunc(gapEnds, func(e struct{ pod, sidecar, app, startedLine, appLast string }) bool {
			return strings.HasPrefix(r.Name, e.pod)
		})
		for id, span := range r.Gaps {
			if span.Min > span.Value || span.Value > span.Max {
				t.Errorf("%s/%s: gap %s breaks min ≤ value ≤ max: %s", r.Namespace, r.Name, id, gapText(span))
			}
			if i < 0 {
				t.Errorf("%s/%s has a gap %s %s, and the test no truth for it", r.Namespace, r.Name, id, gapText(span))
				continue
			}
			e := gapEnds[i]
			var truth harness.GapTruth
			ok := false
			switch id {
			case "sidecar-to-app":
				truth, ok = f.SidecarToApp(r.Name, e.sidecar, e.app, e.startedLine)
			case "app-exit-to-sidecar-exit":
				truth, ok = f.GapOf(r.Name, timeline.Gap{
					From: timeline.MilestoneRef{Container: e.app, Kind: timeline.MExit},
					To:   timeline.MilestoneRef{Container: e.sidecar, Kind: timeline.MExit},
				}, []harness.Point{
					exitPoint(e.app, e.appLast),
					exitPoint(e.sidecar, e.sidecar+" exiting"),
				})
			case "deletion-to-last-exit":
				// A pod a finalizer holds, seen by a watch that began after the kubelet's
				// confirmation rewrote its deletionTimestamp: the bounds must still hold the
				// kubectl delete call.
				if last, found := lastExitOf(f, r.Name); found {
					truth, ok = f.GapOf(r.Name, timeline.Gap{From: timeline.MilestoneRef{Kind: timeline.MDeleting},
						To: timeline.MilestoneRef{Container: last, Kind: timeline.MExit}},
						[]harness.Point{exitPoint("proxy", exitLines[r.Name]["proxy"]), exitPoint("app", exitLines[r.Name]["app"])})
				}
			}
			if !ok {
				t.Errorf("%s/%s: gap %s %s: no truth from the runtime for it", r.Namespace, r.Name, id, gapText(span))
				continue
			}
			checked = append(checked, r.Name+" "+id)
			t.Logf("%s: %s %s; truth in [%s, %s]", r.Name, id, gapText(span), bound(truth.Lo), bound(truth.Hi))
			if !truth.Meets(span) {
				t.Errorf("%s/%s: gap %s: TRUTH OUTSIDE THE TOOL'S BOUNDS: the runtime says [%s, %s], the tool %s",
					r.Namespace, r.Name, id, bound(truth.Lo), bound(truth.Hi), gapText(span))
			}
		}
	}
	// A pod whose sidecar's first run is over shows no sidecar→app to a watch that starts after:
	// its status no longer says when the sidecar started (crash-loop, job-native, drain-killed).
	for _, want := range []struct{ pod, gap string }{
		{podSlow, "sidecar-to-app"}, {jobNative + "-", "app-exit-to-sidecar-exit"}, {podDrainKilled, "app-exit-to-sidecar-exit"},
	} {
		if !slices.ContainsFunc(checked, func(c string) bool {
			return strings.HasPrefix(c, want.pod) && strings.HasSuffix(c, " "+want.gap)
		}) {
			t.Errorf("no %s of %s checked against the truth; checked: %v", want.gap, want.pod, checked)
		}
	}
	if n := len(checked); n < 9 {
		t.Errorf("%d gaps checked against the truth, want 9 at least (slow-start, the 6 mesh pods, job-native, drain-killed): %v", n, checked)
	}
}

// exitPoint is a container's exit of its first run: the line it writes last (Before), or with
// none (a killed app) its last line bounds it below (the runtime's stamp refines both).
func exitPoint(container, line string) harness.Point {
	if line == "" {
		return harness.Point{Container: container, Kind: timeline.MExit, Line: container + " start", Stamp: harness.NotBefore}
	}
	return harness.Point{Container: container, Kind: timeline.MExit, Line: line, Stamp: harness.Before}
}

func gapText(s timeline.Span) string {
	return fmt.Sprintf("%v [%v, %v]", s.Value, s.Min, s.Max)
}

func bound(d time.Duration) string {
	switch d {
	case harness.NoLo:
		return "-∞"
	case harness.NoHi:
		return "∞"
	}
	return d.String()
}

// lastExitOf is the container of pod that the runtime saw exit last, of the pods whose exits
// exitLines names.
func lastExitOf(f *harness.Fleet, pod string) (string, bool) {
	tr := f.Truth(pod)
	last, at := "", time.Time{}
	for c := range exitLines[pod] {
		rt, ok := tr.RuntimeOf(c, 0)
		if !ok || rt.Finished.IsZero() {
			return "", false
		}
		if rt.Finished.After(at) {
			last, at = c, rt.Finished
		}
	}
	return last, last != ""
}
