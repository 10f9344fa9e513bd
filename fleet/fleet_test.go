package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/source"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// final plays an embedded recording to its end.
func final(t *testing.T, name string) timeline.Snapshot {
	t.Helper()
	f, err := recordings.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := source.Play(context.Background(), f, name)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Final
}

// allRows is the rows of every embedded recording's pods.
func allRows(t *testing.T) []*Row {
	var rows []*Row
	for _, name := range []string{"startup-probe", "crashing-sidecar", "job-native-sidecar", "job-classic-sidecar", "termination-order"} {
		var rs Rows
		rows = append(rows, rs.Of(final(t, name), nil)...)
	}
	return rows
}

// TestRowsOfRecordings checks each real recording's row against what its README says happened.
func TestRowsOfRecordings(t *testing.T) {
	byName := map[string]*Row{}
	for _, r := range allRows(t) {
		byName[r.Namespace] = r
	}
	for _, tc := range []struct {
		ns, status   string
		shape        Shape
		sidecar, app int32
		owner        string
		known        [len(Columns)]bool
		worst        timeline.FindingID
		finished     bool
	}{
		{"sc-a", "Completed", Native, 0, 0, "", [3]bool{true, true, true}, timeline.FindingSlowStartup, true},
		{"sc-e", "Init:Error", Native, 4, 0, "", [3]bool{true, false, false}, timeline.FindingCrashLoop, false},
		{"sc-b1", "Completed", Native, 0, 0, "Job/sc-b1", [3]bool{true, true, false}, timeline.FindingKilledAfterGrace, true},
		{"sc-b2", "NotReady", Classic, 0, 0, "Job/sc-b2", [3]bool{}, timeline.FindingClassicSidecarBlocks, false},
		{"sc-c", "Completed", Native, 0, 0, "", [3]bool{true, true, true}, "", true},
	} {
		r, ok := byName[tc.ns]
		if !ok {
			t.Fatalf("no row in namespace %s", tc.ns)
		}
		if r.Status != tc.status || r.Shape != tc.shape || r.SidecarRestarts != tc.sidecar || r.AppRestarts != tc.app ||
			r.Owner.String() != tc.owner || r.Finished != tc.finished {
			t.Errorf("%s: got status %q shape %s restarts %d/%d owner %q finished %v, want %q %s %d/%d %q %v", tc.ns,
				r.Status, r.Shape, r.SidecarRestarts, r.AppRestarts, r.Owner, r.Finished,
				tc.status, tc.shape, tc.sidecar, tc.app, tc.owner, tc.finished)
		}
		for i, c := range r.Gaps {
			if c.Known != tc.known[i] {
				t.Errorf("%s: %s known %v, want %v", tc.ns, Columns[i].ID, c.Known, tc.known[i])
			}
			if c.Known && (c.Span.Value < c.Span.Min || c.Span.Value > c.Span.Max) {
				t.Errorf("%s: %s %v outside its bounds", tc.ns, Columns[i].ID, c.Span)
			}
		}
		var worst timeline.FindingID
		if w := r.Worst(); w != nil {
			worst = w.ID
		}
		if worst != tc.worst {
			t.Errorf("%s: worst finding %q, want %q", tc.ns, worst, tc.worst)
		}
	}
}

// TestAppExitToSidecarExit: termination-order's truth (its README): the app exits after its 3 s
// drain and the sidecar after SIGTERM at once; job-native-sidecar's sidecar is SIGKILLed 30 s
// after the app's exit.
func TestAppExitToSidecarExit(t *testing.T) {
	for _, r := range allRows(t) {
		c := r.Gaps[1]
		if r.Namespace == "sc-b1" && (!c.Known || c.Span.Min > 30e9 || c.Span.Max < 29e9) {
			t.Errorf("sc-b1: app exit → sidecar exit %+v, want about 30 s", c)
		}
	}
}

func TestOwnerOf(t *testing.T) {
	jobs := func(name string) (Owner, bool) {
		if name == "export-known" {
			return Owner{"CronJob", "nightly"}, true
		}
		return Owner{}, false
	}
	for _, tc := range []struct {
		kind, name string
		want       string
	}{
		{"ReplicaSet", "checkout-7d9f8c6b5", "Deployment/checkout"},
		{"ReplicaSet", "checkout-v2-5c4bd9f7x8", "Deployment/checkout-v2"},
		{"ReplicaSet", "hand-made-aeiou", "ReplicaSet/hand-made-aeiou"}, // vowels: no pod-template hash
		{"ReplicaSet", "plain", "ReplicaSet/plain"},
		{"Job", "nightly-29391840", "CronJob/nightly"},
		{"Job", "export-known", "CronJob/nightly"},
		{"Job", "migrate-1", "Job/migrate-1"},
		{"StatefulSet", "db", "StatefulSet/db"},
		{"DaemonSet", "node-agent", "DaemonSet/node-agent"},
	} {
		got := OwnerOf(&timeline.OwnerRef{Kind: tc.kind, Name: tc.name}, jobs).String()
		if got != tc.want {
			t.Errorf("%s/%s: got %q, want %q", tc.kind, tc.name, got, tc.want)
		}
	}
	if got := OwnerOf(nil, nil); got != (Owner{}) {
		t.Errorf("no owner: got %+v", got)
	}
}

func TestMake(t *testing.T) {
	rows := allRows(t)
	all := Make(rows, View{Sort: KeyPod})
	if all.Counts.Pods != 5 || all.Counts.Native != 4 || all.Counts.Classic != 1 || all.Counts.Shown != 5 {
		t.Errorf("counts %+v", all.Counts)
	}
	if all.Counts.Findings[timeline.FindingCrashLoop] != 1 || all.Counts.Findings[timeline.FindingClassicSidecarBlocks] != 1 {
		t.Errorf("finding counts %v", all.Counts.Findings)
	}
	for i := 1; i < len(all.Rows); i++ {
		if all.Rows[i-1].Name > all.Rows[i].Name {
			t.Errorf("not sorted by pod: %s before %s", all.Rows[i-1].Name, all.Rows[i].Name)
		}
	}
	worst := Make(rows, View{Sort: KeyFinding, Desc: true})
	if w := worst.Rows[0].Worst(); w == nil || w.Severity != timeline.SeverityWarning {
		t.Errorf("worst first: %+v", worst.Rows[0])
	}
	if got := worst.Rows[len(worst.Rows)-1].Worst(); got != nil {
		t.Errorf("a pod without findings last, got %+v", got)
	}
	restarts := Make(rows, View{Sort: KeySidecarRestarts, Desc: true})
	if restarts.Rows[0].Namespace != "sc-e" {
		t.Errorf("most sidecar restarts first: %s", restarts.Rows[0].Namespace)
	}
	gap := Make(rows, View{Sort: KeyGap + 1, Desc: true})
	if gap.Rows[0].Namespace != "sc-b1" {
		t.Errorf("longest app exit → sidecar exit first: %s", gap.Rows[0].Namespace)
	}
	for _, f := range []struct {
		filter string
		want   int
	}{{"sc-b", 2}, {"JOB/", 2}, {"crash-loop", 1}, {"init:error", 1}, {"completed", 3}, {"nothing", 0}} {
		if got := Make(rows, View{Filter: f.filter}).Counts.Shown; got != f.want {
			t.Errorf("filter %q: %d rows, want %d", f.filter, got, f.want)
		}
	}
	hidden := Make(append(rows, &Row{Name: "lonely"}), View{SidecarsOnly: true})
	if hidden.Counts.Hidden != 1 || hidden.Counts.Shown != 5 {
		t.Errorf("sidecars only: %+v", hidden.Counts)
	}
}

// TestRowsKeepsUnchanged: a pod the next snapshot shares keeps its row, the same one.
func TestRowsKeepsUnchanged(t *testing.T) {
	s := final(t, "startup-probe")
	var rs Rows
	first := rs.Of(s, nil)
	again := rs.Of(s, nil)
	if len(first) != 1 || len(again) != 1 || first[0] != again[0] {
		t.Fatalf("rows %v, %v", first, again)
	}
	if len(rs.order) != 1 {
		t.Errorf("Rows keeps %d pods, want the snapshot's 1", len(rs.order))
	}
	rs.Of(timeline.Snapshot{}, nil)
	if len(rs.order) != 0 {
		t.Errorf("Rows keeps %d pods after an empty snapshot", len(rs.order))
	}
}

// TestDocument: the JSON document keeps names as the cluster wrote them and every gap with its
// bounds, by column ID.
func TestDocument(t *testing.T) {
	rows := allRows(t)
	rows[0].Name = "evil\x1b]0;title\x07"
	d := DocumentOf(Make(rows, View{Sort: KeyPod}), "all namespaces", time.Unix(0, 0).UTC())
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsRune(b, 0x1b) || !bytes.Contains(b, []byte(`evil\u001b]0;title\u0007`)) {
		t.Errorf("the name is not JSON-escaped as written: %s", b)
	}
	var back Document
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Counts.Pods != 5 || len(back.Rows) != 5 {
		t.Fatalf("round trip: %+v", back.Counts)
	}
	for _, r := range back.Rows {
		if r.Namespace == "sc-c" {
			g, ok := r.Gaps["deletion-to-last-exit"]
			if !ok || g.Min > g.Value || g.Value > g.Max {
				t.Errorf("sc-c deletion-to-last-exit: %+v", r.Gaps)
			}
		}
	}
}

// TestRowsOfBriefs: a scope run in brief mode (timeline.Builder.Brief) keeps most pods as their
// briefs; the table's row of a pod's brief is its row whole, at every frame.
func TestRowsOfBriefs(t *testing.T) {
	for _, name := range recordings.Names() {
		f, err := recordings.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		rd, err := recfile.NewReader(f, name, recfile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		feed := source.OfRecording(rd)
		whole, brief := timeline.NewBuilder(), timeline.NewBuilder()
		brief.Brief(func(*timeline.Pod) bool { return false })
		for i := 0; ; i++ {
			in, err := feed.Next(t.Context())
			if err != nil {
				break
			}
			if o, ok := feed.Observe(in); ok {
				whole.Apply(o)
				brief.Apply(o)
			}
			if i%5 == 0 {
				sameRows(t, name, whole.Snapshot(), brief.Snapshot())
			}
		}
		sameRows(t, name, whole.Snapshot(), brief.Snapshot())
		f.Close()
	}
}

// TestRowsFollowSnapshots: the rows Of keeps from frame to frame, looking only at what changed,
// are the rows made afresh of each frame's snapshot, and a list it returned is never changed.
func TestRowsFollowSnapshots(t *testing.T) {
	f, err := recordings.Open("job-native-sidecar")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := recfile.NewReader(f, "job", recfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	feed := source.OfRecording(rd)
	b := timeline.NewBuilder()
	var kept Rows
	var lists [][]*Row
	var copies [][]*Row
	for {
		in, err := feed.Next(t.Context())
		if err != nil {
			break
		}
		if o, ok := feed.Observe(in); ok {
			b.Apply(o)
		}
		s := b.Snapshot()
		got := kept.Of(s, nil)
		var fresh Rows
		want := fresh.Of(s, nil)
		if len(got) != len(want) {
			t.Fatalf("%d rows kept, %d afresh", len(got), len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(*got[i], *want[i]) {
				t.Fatalf("row %d kept\n%+v\nafresh\n%+v", i, *got[i], *want[i])
			}
		}
		lists, copies = append(lists, got), append(copies, slices.Clone(got))
	}
	for i := range lists {
		if !slices.Equal(lists[i], copies[i]) {
			t.Fatalf("the list of rows of frame %d was changed later", i)
		}
	}
}

func sameRows(t *testing.T, name string, whole, brief timeline.Snapshot) {
	t.Helper()
	var a, b Rows
	wr, br := a.Of(whole, nil), b.Of(brief, nil)
	for i := range wr {
		if !reflect.DeepEqual(*wr[i], *br[i]) {
			t.Fatalf("%s: the row of pod %s's brief\n%+v\nwhole\n%+v", name, wr[i].Name, *br[i], *wr[i])
		}
	}
}
