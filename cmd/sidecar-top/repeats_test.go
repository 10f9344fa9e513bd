package main

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// unhealthyUpdates are the updates of the Unhealthy Events of a recording file that raised their
// count: the count, its lastTimestamp and when the update was received.
func unhealthyUpdates(t *testing.T, path string) (counts []int32, last, received []time.Time) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]int32{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Time   time.Time
			Object struct {
				Kind, Reason  string
				Metadata      struct{ Name string }
				Count         int32
				LastTimestamp time.Time
			}
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue // the header
		}
		o := line.Object
		if o.Kind != "Event" || o.Reason != "Unhealthy" || o.Count <= seen[o.Metadata.Name] {
			continue
		}
		seen[o.Metadata.Name] = o.Count
		counts, last, received = append(counts, o.Count), append(last, o.LastTimestamp), append(received, line.Time)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return counts, last, received
}

// TestJSONProbeRepeats: replay -o json of startup-probe, whose sidecar's startup probe failed
// four times, has four probe-failed milestones, each with its count, in the second of its
// update's lastTimestamp and not after the update was received.
func TestJSONProbeRepeats(t *testing.T) {
	path := recordingPath("startup-probe")
	counts, last, received := unhealthyUpdates(t, path)
	code, stdout, stderr := runCmd(t, "replay", path, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct{ Pods []*timeline.Pod }
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || len(doc.Pods) != 1 || doc.Pods[0].Container("sidecar") == nil {
		t.Fatalf("the document (%v): %.300s", err, stdout)
	}
	var got []timeline.Milestone
	for _, m := range doc.Pods[0].Container("sidecar").Milestones() {
		if m.Kind == timeline.MProbeFailed {
			got = append(got, m)
		}
	}
	if len(counts) != 4 || len(got) != len(counts) {
		t.Fatalf("%d probe-failed milestones for %d Unhealthy updates (want 4)", len(got), len(counts))
	}
	for i, m := range got {
		hi := min(last[i].Add(time.Second).UnixNano(), received[i].UnixNano())
		if m.Count != counts[i] || m.Earliest.Before(last[i]) || m.Latest.UnixNano() > hi || m.At.Before(m.Earliest) || m.At.After(m.Latest) {
			t.Errorf("probe-failed %d: count %d, %s in [%s, %s]; want count %d within [%s, %s]", i+1, m.Count, m.At, m.Earliest, m.Latest,
				counts[i], last[i], time.Unix(0, hi).UTC())
		}
	}
}
