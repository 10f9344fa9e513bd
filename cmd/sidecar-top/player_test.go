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

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/source"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

func openRecording(t *testing.T, name string) (*recfile.Reader, watch.Target) {
	t.Helper()
	f, err := recordings.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	rd, err := recfile.NewReader(f, name, recfile.Options{})
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

// TestRecordReplayRoundTrip: what the player records while it shows a watch replays to exactly
// the timeline it showed. The source here is a real recording standing in for the informers.
func TestRecordReplayRoundTrip(t *testing.T) {
	for _, name := range recordings.Names() {
		t.Run(name, func(t *testing.T) {
			src, tgt := openRecording(t, name)
			path := filepath.Join(t.TempDir(), "rec.jsonl")
			file, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := recfile.NewRecorder(file, recfile.Header{Namespace: tgt.Namespace, Target: tgt.String(), StartTime: time.Now()})
			if err != nil {
				t.Fatal(err)
			}
			var last timeline.Snapshot
			res, err := play.RunLive(context.Background(), source.Recorded(items{src}, rec), play.Options{}, func(f play.Frame) {
				if f.WatchErr != nil {
					t.Error(f.WatchErr)
				}
				last = f.Snapshot
			})
			if err != nil {
				t.Fatal(err)
			}
			file.Close()
			live := res.Final
			if last.Pods.Len() == 0 || last.Pods.At(0) != live.Pods.At(0) {
				t.Error("the last frame shown is not the final timeline")
			}

			code, stdout, stderr := runCmd(t, "replay", path, "-o", "json")
			if code != 0 {
				t.Fatalf("replay: %s", stderr)
			}
			var replayed any
			if err := json.Unmarshal([]byte(stdout), &replayed); err != nil {
				t.Fatal(err)
			}
			var liveJSON bytes.Buffer
			if err := writeJSON(&liveJSON, tgt.Namespace, tgt.String(), live, false); err != nil {
				t.Fatal(err)
			}
			var want any
			if err := json.Unmarshal(liveJSON.Bytes(), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, replayed); diff != "" {
				t.Errorf("replay differs from what was shown live (-live +replay):\n%s", diff)
			}
			if res.Items == 0 {
				t.Error("no item was read")
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
			res, err := play.RunLive(context.Background(), source.Of(items{src}), untilOptions(tgt, tt.until), nil)
			if err != nil || res.Met != tt.want {
				t.Errorf("met = %v, %v; want %v", res.Met, err, tt.want)
			}
		})
	}
}

// TestUntilStops: once the condition holds (and linger has passed), the player stops reading,
// though the source would block for ever (as informers do). It checks at most once a frame.
func TestUntilStops(t *testing.T) {
	src, tgt := openRecording(t, "startup-probe")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := play.RunLive(ctx, source.Of(blocking{items{src}}), untilOptions(tgt, untilReady), nil)
	if !res.Met || err != nil || ctx.Err() != nil {
		t.Fatalf("met %v err %v ctx %v", res.Met, err, ctx.Err())
	}
	if res.Final.Pods.Len() != 1 {
		t.Errorf("stopped with %d pods, want 1", res.Final.Pods.Len())
	}
}

func untilOptions(tgt watch.Target, c untilCondition) play.Options {
	return play.Options{Until: func(s timeline.Snapshot) bool { return c.met(tgt, s) }}
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

// items is a recording's reader standing in for live informers: its items, which the feed
// translates as it translates a watch's.
type items struct{ rd *recfile.Reader }

func (s items) Next(ctx context.Context) (watch.Item, error) {
	r, err := s.rd.Next(ctx)
	return r.Item, err
}
