package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/source"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// feedPod is a pod created at t0 whose app starts at +1 s and exits at +5 s.
func feedPod(t0 time.Time) timeline.Snapshot {
	m := func(kind timeline.MilestoneKind, s float64) timeline.Milestone {
		at := t0.Add(time.Duration(s * float64(time.Second)))
		return timeline.Milestone{Kind: kind, Container: "app", At: at, Earliest: at, Latest: at, Source: timeline.SourceEvent,
			Offset: timeline.Span{Value: at.Sub(t0), Min: at.Sub(t0), Max: at.Sub(t0)}}
	}
	c := timeline.Container{Name: "app", Kind: timeline.KindApp, Runs: timeline.SeqOf(&timeline.Run{Milestones: []timeline.Milestone{m(timeline.MStart, 1), m(timeline.MExit, 5)}})}
	return timeline.Snapshot{Pods: timeline.SeqOf([]*timeline.Pod{{Name: "p", UID: "u", Created: t0, LastSeen: t0.Add(5 * time.Second), Containers: []timeline.Container{c}}}...)}
}

// TestPlainFeedClock: between frames the clock lets held lines out, at the rate given, never
// past the latest item the player read (the ceiling); without a rate nothing moves.
func TestPlainFeedClock(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	wall := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	f := newPlainFeed(&out, 2, reportOptions{}, nil)
	f.clock = func() time.Time { return wall }
	lines := func() int { return strings.Count(out.String(), "\n") }

	f.frame(play.Frame{Snapshot: feedPod(t0), Now: t0.Add(2 * time.Second)})
	if lines() != 0 {
		t.Fatalf("printed at +2 s: %q; want nothing (the start at +1 s is held to +3 s)", out.String())
	}
	f.ceiling = t0.Add(4 * time.Second)
	wall = wall.Add(2 * time.Second) // +4 s of recorded time at 2×, but the player has read only to +4 s
	f.tick()
	if lines() != 1 {
		t.Fatalf("after the clock moved to +4 s: %q; want the start's line", out.String())
	}
	f.ceiling = t0.Add(time.Hour)
	wall = wall.Add(10 * time.Second)
	f.tick()
	if lines() != 2 {
		t.Fatalf("after the clock moved to +24 s: %q; want the exit's line too", out.String())
	}

	out.Reset()
	still := newPlainFeed(&out, 0, reportOptions{}, nil)
	still.clock = func() time.Time { return wall }
	still.frame(play.Frame{Snapshot: feedPod(t0), Now: t0.Add(2 * time.Second)})
	wall = wall.Add(time.Hour)
	still.tick()
	if lines() != 0 {
		t.Fatalf("a feed with no rate moved: %q", out.String())
	}
	if err := still.finish(feedPod(t0)); err != nil || !strings.Contains(out.String(), "exit") {
		t.Fatalf("finish: %v, %q; want every line", err, out.String())
	}
}

// TestPlainFeedClockRests: a live feed's clock goes on only while a line is held, and a frame
// that leaves one held wakes it; a replay's clock goes on regardless.
func TestPlainFeedClockRests(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	wall := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	f := newPlainFeed(&out, 1, reportOptions{}, nil)
	f.rests = true
	f.clock = func() time.Time { return wall }
	if f.tick() {
		t.Error("before any frame, the live clock would go on")
	}
	f.frame(play.Frame{Snapshot: feedPod(t0), Now: t0.Add(2 * time.Second)})
	select {
	case <-f.wake:
	default:
		t.Fatal("a frame that left lines held did not wake the clock")
	}
	wall = wall.Add(time.Second)
	if !f.tick() || strings.Count(out.String(), "\n") != 1 {
		t.Fatalf("at +3 s: the clock would rest with the exit's line held, or printed %q (want the start's line)", out.String())
	}
	wall = wall.Add(time.Minute)
	if f.tick() {
		t.Errorf("every line printed (%q), yet the clock would go on", out.String())
	}
	f.frame(play.Frame{Snapshot: feedPod(t0), Now: t0.Add(time.Minute)})
	select {
	case <-f.wake:
		t.Error("a frame that left nothing held woke the clock")
	default:
	}

	replay := newPlainFeed(&bytes.Buffer{}, 1, reportOptions{}, nil)
	replay.clock = func() time.Time { return wall }
	replay.frame(play.Frame{Snapshot: feedPod(t0), Now: t0.Add(time.Minute)})
	if !replay.tick() {
		t.Error("a replay's clock would rest")
	}
}

// TestPlainFeedCeiling: the source the feed wraps sets the ceiling to the latest item's time.
func TestPlainFeedCeiling(t *testing.T) {
	f := newPlainFeed(&bytes.Buffer{}, 1, reportOptions{}, nil)
	src, _ := openRecording(t, "termination-order")
	s := f.source(src)
	var last time.Time
	for range 5 {
		it, err := s.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		last = it.Time
	}
	if !f.ceiling.Equal(last) {
		t.Errorf("ceiling %v; want the fifth item's time %v", f.ceiling, last)
	}
}

// TestReplayPlainOrder: replay's plain lines of each real recording come in the order of their
// estimates: each owner's offsets never decrease. Paced (at 1000×, the clock letting lines out
// between items) and as fast as it can.
func TestReplayPlainOrder(t *testing.T) {
	for _, name := range recordings.Names() {
		for _, args := range [][]string{{"demo", name}, {"demo", name, "--speed", "1000"}} {
			code, stdout, stderr := runCmd(t, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			last := map[string]time.Duration{}
			n := 0
			for _, l := range strings.Split(stdout, "\n") {
				f := strings.Fields(l)
				if len(f) < 2 || !strings.HasPrefix(f[1], "+") {
					continue
				}
				d, err := time.ParseDuration(f[1])
				if err != nil {
					t.Fatalf("%v: %q: %v", args, l, err)
				}
				if prev, ok := last[f[0]]; ok && d < prev {
					t.Errorf("%v: %s at %s after %s:\n%s", args, f[0], f[1], prev, l)
				}
				last[f[0]] = d
				n++
			}
			if n < 10 {
				t.Errorf("%v: %d milestone lines:\n%s", args, n, stdout)
			}
		}
	}
}

// TestReplaySummary: --summary adds the workload's summary after the plain lines and to the
// JSON document (as Summarize makes it); without it there is none; --explain adds each why to
// the plain lines and leaves -o json as it is, since JSON always has each why.
func TestReplaySummary(t *testing.T) {
	code, plain, stderr := runCmd(t, "demo", "job-native-sidecar", "--summary", "--explain")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"summary of 1 pod:", "sidecar SIGTERM → sidecar exit: 1 pod, 30.04s [28.54s, 30.54s] (sc-b1-69jc7)",
		"why: no startupProbe: started as soon as it ran"} {
		if !strings.Contains(plain, want) {
			t.Errorf("plain output lacks %q:\n%s", want, plain)
		}
	}
	_, bare, _ := runCmd(t, "demo", "job-native-sidecar")
	if strings.Contains(bare, "summary of") || strings.Contains(bare, "why:") {
		t.Errorf("plain output without the flags has a summary or a why:\n%s", bare)
	}

	_, withSum, _ := runCmd(t, "demo", "job-native-sidecar", "-o", "json", "--summary")
	var doc struct {
		Summary json.RawMessage `json:"summary"`
	}
	if err := json.Unmarshal([]byte(withSum), &doc); err != nil {
		t.Fatal(err)
	}
	src, _ := openRecording(t, "job-native-sidecar")
	res, err := play.RunFile(context.Background(), source.OfRecording(src), 0, play.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(timeline.Summarize(res.Final))
	if err != nil {
		t.Fatal(err)
	}
	var got, wantV any
	_ = json.Unmarshal(doc.Summary, &got)
	_ = json.Unmarshal(want, &wantV)
	if diff := cmp.Diff(got, wantV); diff != "" || got == nil {
		t.Errorf("the JSON's summary (-got +want):\n%s", diff)
	}
	_, pretty, _ := runCmd(t, "demo", "job-native-sidecar", "-o", "json", "--summary", "--pretty")
	var a, b any
	if err := json.Unmarshal([]byte(pretty), &a); err != nil {
		t.Fatalf("--pretty --summary: %v", err)
	}
	_ = json.Unmarshal([]byte(withSum), &b)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("--pretty differs (-pretty +compact):\n%s", diff)
	}

	_, without, _ := runCmd(t, "demo", "job-native-sidecar", "-o", "json")
	_, explained, _ := runCmd(t, "demo", "job-native-sidecar", "-o", "json", "--explain")
	if strings.Contains(without, `"summary"`) || explained != without || !strings.Contains(without, `"why"`) {
		t.Errorf("-o json: a summary without --summary, or --explain changed it, or no why in it")
	}
}
