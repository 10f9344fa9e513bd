package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/ui"
	"github.com/sidecar-top/sidecar-top/watch"
)

// fleetFrames are two frames of every embedded recording's pods in one scope: the first with
// each recording played to its first half, the second to its end.
func fleetFrames(t *testing.T) (half, end play.Frame) {
	t.Helper()
	e := play.NewEngine()
	var rest []timeline.Observation
	for _, name := range recordings.Names() {
		obs := embeddedObservations(t, name)
		for _, o := range obs[:len(obs)/2] {
			e.Apply(o)
		}
		rest = append(rest, obs[len(obs)/2:]...)
	}
	half = play.Frame{Snapshot: e.Snapshot(), Now: e.Now(), Listed: true}
	for _, o := range rest {
		e.Apply(o)
	}
	return half, play.Frame{Snapshot: e.Snapshot(), Now: e.Now(), Listed: true}
}

// embeddedObservations are the observations of the embedded recording name.
func embeddedObservations(t *testing.T, name string) []timeline.Observation {
	t.Helper()
	f, err := recordings.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, items, _, err := recfile.ReadAll(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return watch.Observations(items)
}

// TestFleetPlain: nothing before the listed pods are in; then the table with its counts; then a
// line for each row that changed, and none for one that did not.
func TestFleetPlain(t *testing.T) {
	half, end := fleetFrames(t)
	var b bytes.Buffer
	o := newFleetOut(&b, "plain", "all namespaces", false)
	half.Listed = false
	o.frame(half)
	if b.Len() != 0 {
		t.Fatalf("printed before the listed pods were in:\n%s", b.String())
	}
	half.Listed = true
	o.frame(half)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if !strings.HasPrefix(lines[0], "NAMESPACE") || !strings.HasPrefix(lines[len(lines)-1], "# all namespaces: 5 pods") ||
		len(lines) != 2+half.Snapshot.Pods.Len() {
		t.Fatalf("the first table:\n%s", b.String())
	}
	b.Reset()
	o.frame(half)
	if b.Len() != 0 {
		t.Errorf("a frame with no change printed:\n%s", b.String())
	}
	o.frame(end)
	changed := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(changed) == 0 || len(changed) > 5 || strings.HasPrefix(changed[0], "NAMESPACE") {
		t.Errorf("the changed rows:\n%s", b.String())
	}
}

// TestFleetJSONL: each milestone and finding once, as JSON lines: a milestone known at the first
// frame is not printed again at the next ones.
func TestFleetJSONL(t *testing.T) {
	half, end := fleetFrames(t)
	var b bytes.Buffer
	o := newFleetOut(&b, "jsonl", "all namespaces", false)
	o.frame(half)
	o.frame(end)
	o.frame(end)
	milestones, findings := 0, 0
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		var v struct{ Type string }
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		switch v.Type {
		case "milestone":
			milestones++
		case "finding":
			findings++
		default:
			t.Errorf("a line of type %q: %s", v.Type, l)
		}
	}
	rows, fs := 0, 0
	for _, p := range end.Snapshot.Pods.Items() {
		rows, fs = rows+len(p.Rows()), fs+len(p.Findings())
	}
	if milestones != rows || findings < fs {
		t.Errorf("%d milestones and %d findings printed, want the end's %d milestones and %d findings", milestones, findings, rows, fs)
	}
}

// TestFleetEmptyScope: a scope with no pod prints its table, and its document, when the watch
// says what was there is in, though no pod ever changes (the frame Listed brings).
func TestFleetEmptyScope(t *testing.T) {
	e := play.NewEngine()
	e.Add(nil, play.Input{Time: time.Unix(100, 0), Listed: true})
	if !e.Changed() || !e.Listed() || !e.Now().Equal(time.Unix(100, 0)) {
		t.Fatalf("Listed: changed %v, listed %v, now %v", e.Changed(), e.Listed(), e.Now())
	}
	f := play.Frame{Snapshot: e.Snapshot(), Now: e.Now(), Listed: e.Listed()}
	for format, want := range map[string]string{"plain": "# namespace x: 0 pods", "json": `"at":"1970-01-01T00:01:40Z"`} {
		var b bytes.Buffer
		newFleetOut(&b, format, "namespace x", false).frame(f)
		if !strings.Contains(b.String(), want) {
			t.Errorf("%s of an empty scope: %q, want %q in it", format, b.String(), want)
		}
	}
}

// TestFleetJSON: one document, once the pods are in, then done.
func TestFleetJSON(t *testing.T) {
	_, end := fleetFrames(t)
	var b bytes.Buffer
	o := newFleetOut(&b, "json", "namespace x", false)
	o.frame(end)
	o.frame(end)
	if !o.Done() || strings.Count(b.String(), "\n") != 1 {
		t.Fatalf("want one document and done: %v\n%s", o.Done(), b.String())
	}
	var d struct {
		Kind   string
		Counts struct{ Pods int }
	}
	if err := json.Unmarshal(b.Bytes(), &d); err != nil || d.Kind != "SidecarTopFleet" || d.Counts.Pods != 5 {
		t.Errorf("document %+v, %v", d, err)
	}
}

// TestReplayOfScope: a recording of a scope opens on the fleet table.
func TestReplayOfScope(t *testing.T) {
	for _, tc := range []struct {
		target          string
		fleet, sidecars bool
	}{{"all namespaces", true, true}, {"namespace shop", true, false}, {"pod/x", false, false}} {
		cfg := replayConfig(play.NewReplay(nil, 1, false, time.Second), tc.target, "", ui.NewStyles(ui.NewRenderer(io.Discard, ui.ColorNever, "")))
		if cfg.Fleet != tc.fleet || cfg.SidecarsOnly != tc.sidecars {
			t.Errorf("%s: Fleet %v, SidecarsOnly %v", tc.target, cfg.Fleet, cfg.SidecarsOnly)
		}
	}
}

// TestWhere: a watch says what it watches; a scope's namespace is in its words already.
func TestWhere(t *testing.T) {
	for _, tc := range []struct {
		t    watch.Target
		want string
	}{
		{watch.Target{Kind: watch.TargetPod, Name: "x", Namespace: "shop"}, "pod/x in namespace shop"},
		{watch.Target{Kind: watch.TargetScope}, "all namespaces"},
		{watch.Target{Kind: watch.TargetScope, Namespace: "shop"}, "namespace shop"},
	} {
		if got := where(tc.t); got != tc.want {
			t.Errorf("where(%+v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}

// TestFleetOutForgets: what --plain and -o jsonl keep of each pod goes with the pods a run lets
// go of once finished (--keep-finished): a scope watched for days keeps no line per pod it ever
// had.
func TestFleetOutForgets(t *testing.T) {
	e := play.NewEngine()
	e.Retain(0)
	_, end := fleetFrames(t)
	for _, name := range recordings.Names() {
		for _, o := range embeddedObservations(t, name) {
			e.Apply(o)
		}
	}
	before := play.Frame{Snapshot: e.Snapshot(), Now: e.Now(), Listed: true}
	plain := newFleetOut(io.Discard, "plain", "all namespaces", false)
	jsonl := newFleetOut(io.Discard, "jsonl", "all namespaces", false)
	for _, o := range []*fleetOut{plain, jsonl} {
		o.frame(before)
	}
	if len(plain.last) != end.Snapshot.Pods.Len() || len(jsonl.seen) != end.Snapshot.Pods.Len() {
		t.Fatalf("plain keeps %d pods, jsonl %d, of %d", len(plain.last), len(jsonl.seen), end.Snapshot.Pods.Len())
	}
	e.FinishedIn(before.Snapshot, e.Now())
	if gone := e.Sweep(e.Now()); len(gone) == 0 {
		t.Fatal("no recording's pod was final")
	}
	after := play.Frame{Snapshot: e.Snapshot(), Now: e.Now(), Listed: true}
	for _, o := range []*fleetOut{plain, jsonl} {
		o.frame(after)
	}
	if n := after.Snapshot.Pods.Len(); len(plain.last) != n || len(jsonl.seen) != n {
		t.Errorf("after the run let go of the final pods: plain keeps %d pods, jsonl %d, of %d", len(plain.last), len(jsonl.seen), n)
	}
}
