package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

func openRecording(t *testing.T, name string) (*watch.Reader, watch.Target) {
	t.Helper()
	f, err := recordings.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	rd, err := watch.NewReader(f, name)
	if err != nil {
		t.Fatal(err)
	}
	h := rd.Header()
	tgt, err := watch.ParseTarget([]string{h.Target}, "", h.Namespace)
	if err != nil {
		t.Fatal(err)
	}
	return rd, tgt
}

// TestRecordReplayRoundTrip: what the feed records while it shows a watch replays to exactly the
// timeline it showed. The source here is a real recording standing in for the informers.
func TestRecordReplayRoundTrip(t *testing.T) {
	for _, name := range recordings.Names() {
		t.Run(name, func(t *testing.T) {
			src, tgt := openRecording(t, name)
			path := filepath.Join(t.TempDir(), "rec.jsonl")
			file, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			f := newFeed(src, tgt)
			f.rec, err = watch.NewRecorder(file, watch.Header{Namespace: tgt.Namespace, Target: tgt.String(), StartTime: time.Now()})
			if err != nil {
				t.Fatal(err)
			}
			var shown []timeline.Observation
			if _, err := f.run(context.Background(), func(o timeline.Observation) { shown = append(shown, o) }, func(err error) { t.Error(err) }); err != nil {
				t.Fatal(err)
			}
			file.Close()
			live := f.builder.Snapshot()

			code, stdout, stderr := runCmd(t, "replay", path, "-o", "json")
			if code != 0 {
				t.Fatalf("replay: %s", stderr)
			}
			var replayed any
			if err := json.Unmarshal([]byte(stdout), &replayed); err != nil {
				t.Fatal(err)
			}
			var liveJSON bytes.Buffer
			if err := writeJSON(&liveJSON, tgt.Namespace, tgt.String(), live); err != nil {
				t.Fatal(err)
			}
			var want any
			if err := json.Unmarshal(liveJSON.Bytes(), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, replayed); diff != "" {
				t.Errorf("replay differs from what was shown live (-live +replay):\n%s", diff)
			}
			if len(shown) != f.items {
				t.Errorf("shown %d observations of %d items", len(shown), f.items)
			}
		})
	}
}

func TestUntil(t *testing.T) {
	tests := []struct {
		recording string
		until     untilCondition
		want      bool
	}{
		{"job-native-sidecar", untilComplete, true},
		{"job-classic-sidecar", untilComplete, false},
		{"termination-order", untilDeleted, true},
		{"termination-order", untilComplete, true},
		{"startup-probe", untilReady, true},
		{"crashing-sidecar", untilDeleted, false},
		{"crashing-sidecar", untilComplete, false},
	}
	for _, tt := range tests {
		t.Run(tt.recording+"/"+string(tt.until), func(t *testing.T) {
			src, tgt := openRecording(t, tt.recording)
			f := newFeed(src, tgt)
			f.until = tt.until
			met, err := f.run(context.Background(), func(timeline.Observation) {}, func(error) {})
			if err != nil || met != tt.want {
				t.Errorf("met = %v, %v; want %v", met, err, tt.want)
			}
		})
	}
}

// TestUntilStops: once the condition holds (and linger has passed), the feed stops reading.
func TestUntilStops(t *testing.T) {
	src, tgt := openRecording(t, "startup-probe")
	f := newFeed(blocking{src}, tgt)
	f.until = untilReady
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	met, err := f.run(ctx, func(timeline.Observation) {}, func(error) {})
	if !met || err != nil || ctx.Err() != nil {
		t.Fatalf("met %v err %v ctx %v", met, err, ctx.Err())
	}
	if f.builder.Snapshot().Pods[0].Status != "Running" {
		t.Errorf("stopped at %q, want Running", f.builder.Snapshot().Pods[0].Status)
	}
}

// blocking is a source that, at its end, blocks like live informers instead of ending.
type blocking struct{ watch.Source }

func (b blocking) Next(ctx context.Context) (watch.Item, error) {
	it, err := b.Source.Next(ctx)
	if err != nil {
		<-ctx.Done()
		return it, ctx.Err()
	}
	return it, nil
}
