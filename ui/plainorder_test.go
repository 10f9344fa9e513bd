package ui

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/source"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// replayPlain plays a recording through a Plain printer as replay does (a frame per 33 ms of
// recorded time, each advancing the printer to its time), and returns the output and the
// final snapshot.
func replayPlain(t *testing.T, src io.Reader, name string, explain bool) (string, timeline.Snapshot) {
	t.Helper()
	rd, err := recfile.NewReader(src, name, recfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	p := NewPlain(&b)
	p.SetExplain(explain)
	res, err := play.RunFile(t.Context(), source.OfRecording(rd), 0, play.Options{}, func(f play.Frame) {
		p.Update(f.Snapshot)
		p.Advance(f.Now)
	})
	if err != nil {
		t.Fatal(err)
	}
	p.Summary(res.Final)
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String(), res.Final
}

// plainLineRE reads a milestone line: its owner, offset and gap.
var plainLineRE = regexp.MustCompile(`^(\S+)\s+([+-][0-9hms.]+)(?: ±\S+)?\s+(-|Δ[+-][0-9hms.]+)`)

// parseOffset reads an offset or gap as fmtSigned writes it: +4.14s, -0.50s, +1m02.5s, +1h02m03s.
func parseOffset(t *testing.T, s string) time.Duration {
	t.Helper()
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatalf("offset %q: %v", s, err)
	}
	return d
}

// checkOrder checks that each owner's offsets never decrease and no Δ is negative, and that the
// lines of all owners are in time order: an owner's offset counts from its pod's (or job's)
// creation in final, to the 10 ms the offsets are rounded to.
func checkOrder(t *testing.T, out string, final timeline.Snapshot) (lines int) {
	t.Helper()
	origin := map[string]time.Time{}
	for _, p := range final.Pods.Items() {
		origin[present.Safe(p.Name)] = newPodTimes(p).origin
	}
	for _, j := range final.Jobs {
		origin["job/"+present.Safe(j.Name)] = j.Created
	}
	last := map[string]time.Duration{}
	var lastAt time.Time
	for i, l := range strings.Split(out, "\n") {
		m := plainLineRE.FindStringSubmatch(l)
		if m == nil || strings.HasPrefix(l, "pod ") || strings.HasPrefix(l, "job ") {
			continue
		}
		lines++
		owner, off := m[1], parseOffset(t, m[2])
		if prev, ok := last[owner]; ok && off < prev {
			t.Errorf("line %d: %s's offset %s comes after %s:\n%s", i+1, owner, m[2], textfmt.Signed(prev), l)
		}
		last[owner] = off
		if strings.HasPrefix(m[3], "Δ-") {
			t.Errorf("line %d: a negative gap:\n%s", i+1, l)
		}
		o, ok := origin[owner]
		if !ok {
			t.Fatalf("line %d: no pod or job %q in the final snapshot", i+1, owner)
		}
		at := o.Add(off)
		if at.Before(lastAt.Add(-10 * time.Millisecond)) {
			t.Errorf("line %d: at %s, before the line above (%s):\n%s", i+1, at.Format(time.StampMilli), lastAt.Format(time.StampMilli), l)
		}
		if at.After(lastAt) {
			lastAt = at
		}
	}
	return lines
}

// TestPlainOrderRecordings: a replay of each real recording prints its milestone lines in the
// order of their estimates: offsets never decrease, one line per milestone (and per count of a
// repeated Event).
func TestPlainOrderRecordings(t *testing.T) {
	for _, name := range recordings.Names() {
		t.Run(name, func(t *testing.T) {
			f, err := recordings.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			out, final := replayPlain(t, f, name, false)
			lines := checkOrder(t, out, final)
			rows := 0
			for _, p := range final.Pods.Items() {
				rows += len(p.Rows())
			}
			for _, j := range final.Jobs {
				rows += len(j.Milestones)
			}
			if lines < rows {
				t.Errorf("%d milestone lines for %d milestones:\n%s", lines, rows, out)
			}
		})
	}
}

// TestPlainOrderJob: the same for a synthetic Job of 200 pods, each a copy of the real one's
// 100 ms after the one before, their lines interleaved.
func TestPlainOrderJob(t *testing.T) {
	f, err := recordings.Open("job-native-sidecar")
	if err != nil {
		t.Fatal(err)
	}
	src, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	big, err := synth.Pods(200, src)
	if err != nil {
		t.Fatal(err)
	}
	out, final := replayPlain(t, strings.NewReader(string(big)), "pods-200", false)
	if lines := checkOrder(t, out, final); lines < 200*10 {
		t.Errorf("%d milestone lines for 200 pods", lines)
	}
}

// TestPlainHorizon: a line is held until the time passes its estimate by the horizon; one that
// becomes known later with an earlier estimate comes out first; a held estimate that moves is
// printed where it moved to; a line printed is not printed again when its estimate moves.
func TestPlainHorizon(t *testing.T) {
	created := at(0)
	pod := func(lane ...timeline.Milestone) timeline.Snapshot {
		c := fixtureLane(timeline.Container{Name: "app", Kind: timeline.KindApp}, created, lane, nil)
		p := &timeline.Pod{Name: "p", UID: "uid-p", Created: created, LastSeen: at(10),
			Milestones: podRow(created, ms(timeline.MCreated, "", 0, 0, 0, timeline.SourceStatus)),
			Containers: []timeline.Container{c}}
		return timeline.Snapshot{Pods: timeline.SeqOf(p)}
	}
	start := ms(timeline.MStart, "app", 0, 3, 0.5, timeline.SourceStatus)
	ready := ms(timeline.MReady, "app", 0, 4, 0, timeline.SourceObserved)
	created2 := ms(timeline.MCreated, "app", 0, 2.5, 0, timeline.SourceEvent)
	var b strings.Builder
	p := NewPlain(&b)
	step := func(what string, f func()) {
		f()
		fmt.Fprintf(&b, "--- %s\n", what)
	}
	step("start learned at +3.5 s: the pod's creation only", func() { p.Update(pod(start)); p.Advance(at(3.5)) })
	step("ready at +4.5 s, created (at +2.5 s) at +4.6 s: created only", func() {
		p.Update(pod(start, ready))
		p.Update(pod(start, ready, created2))
		p.Advance(at(4.6))
	})
	moved := with(start, func(m *timeline.Milestone) { m.At = at(4.2) })
	step("start moves to +4.2 s, after ready: ready first at +6.5 s", func() {
		p.Update(pod(moved, ready, created2))
		p.Advance(at(6.5))
	})
	back := with(moved, func(m *timeline.Milestone) { m.At = at(1) })
	step("start moves back to +1 s once printed: not again", func() {
		p.Update(pod(back, ready, created2))
		p.Advance(at(20))
		p.Flush()
	})
	want := `p     +0.00s                    -           pod           created       status
--- start learned at +3.5 s: the pod's creation only
p     +2.50s              Δ+2.50s           app           created       event
--- ready at +4.5 s, created (at +2.5 s) at +4.6 s: created only
p     +4.00s              Δ+1.50s           app           ready         observed
p     +4.20s ±1.70        Δ+0.20s ±1.70     app           start         status
--- start moves to +4.2 s, after ready: ready first at +6.5 s
--- start moves back to +1 s once printed: not again
`
	if diff := cmp.Diff(strings.Split(b.String(), "\n"), strings.Split(want, "\n")); diff != "" {
		t.Errorf("plain output (-got +want):\n%s", diff)
	}
}

// TestPlainOffAxis: a milestone stamped years off is printed at once, with its date, not held
// until the end.
func TestPlainOffAxis(t *testing.T) {
	created := at(0)
	far := ms(timeline.MExit, "app", 0, 0, 0, timeline.SourceStatus)
	far.At, far.Earliest, far.Latest = time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC), time.Time{}, time.Time{}
	c := fixtureLane(timeline.Container{Name: "app", Kind: timeline.KindApp}, created, []timeline.Milestone{far}, nil)
	pod := &timeline.Pod{Name: "p", UID: "uid-p", Created: created, LastSeen: at(1), Containers: []timeline.Container{c}}
	var b strings.Builder
	p := NewPlain(&b)
	p.Update(timeline.Snapshot{Pods: timeline.SeqOf(pod)})
	p.Advance(at(1))
	if !strings.Contains(b.String(), "2099") || strings.Count(b.String(), "\n") != 1 {
		t.Errorf("got %q; want the exit's line with its date at once", b.String())
	}
}

// TestParseOffset: the test's reader of offsets reads what fmtSigned writes.
func TestParseOffset(t *testing.T) {
	for _, d := range []time.Duration{0, 250 * time.Millisecond, -500 * time.Millisecond, 62500 * time.Millisecond, 3723 * time.Second} {
		if got := parseOffset(t, textfmt.Signed(d)); got != d {
			t.Errorf("parseOffset(%q) = %v; want %v", textfmt.Signed(d), got, d)
		}
	}
}
