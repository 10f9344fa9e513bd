package watch_test

import (
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// logsDemo is a real recording made with --logs and three marks (testdata/logs-demo.yaml, on
// the e2e cluster): a silent init container, a native sidecar that prints a line when it
// listens and when it gets SIGTERM, and an app that prints 60 lines in its first 3 s, then one a
// second, and two when it is signalled; the pod is deleted after 12 s.
const logsDemo = "testdata/logs-demo.jsonl"

// milestoneView is what the test compares of a milestone: where its bounds come from.
type milestoneView struct {
	Kind     timeline.MilestoneKind
	Source   timeline.Source
	Evidence []string
}

func TestLogsDemoRecording(t *testing.T) {
	f, err := os.Open(logsDemo)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, obs, rd, err := recfile.ReadObservations(f, logsDemo)
	if err != nil {
		t.Fatal(err)
	}
	wantHeader := []string{"proxy:listening=proxy listening", "app:sigterm=caught SIGTERM", "*:bye=bye$"}
	if !h.Logs || h.LogText || h.NodeLogs || !cmp.Equal(h.Marks, wantHeader) || rd.Skipped != 0 {
		t.Fatalf("header %+v, %d skipped", h, rd.Skipped)
	}
	b := timeline.NewBuilder()
	logLines := map[string]int{}
	for _, o := range obs {
		if o.Log != nil {
			logLines[o.Log.Container] += len(o.Log.Lines)
			for _, l := range o.Log.Lines {
				if l.Mark == "" && l.Text != "" {
					t.Errorf("an unmarked line kept its text: %+v", l)
				}
			}
		}
		b.Apply(o)
	}
	if diff := cmp.Diff(logLines, map[string]int{"setup": 0, "proxy": 2, "app": 71}); diff != "" {
		t.Errorf("lines per container (-got +want):\n%s", diff)
	}
	s := b.Snapshot()
	if s.Pods.Len() != 1 {
		t.Fatalf("%d pods", s.Pods.Len())
	}
	got := map[string][]milestoneView{}
	for _, c := range s.Pods.At(0).Containers {
		for _, r := range c.Runs.Items() {
			for _, m := range r.Milestones {
				v := milestoneView{Kind: m.Kind, Source: m.Source}
				for _, e := range m.Evidence {
					v.Evidence = append(v.Evidence, e.What)
				}
				got[c.Name] = append(got[c.Name], v)
			}
			if c.Name == "app" && (r.Log == nil || r.Log.Lines != 71 || r.Log.PerSecond.Len() != 12) {
				t.Errorf("app's run log %+v", r.Log)
			}
		}
	}
	// The log's evidence where the test pod gives it: each run's exit after its last line, the
	// marked lines as the app's own milestones or refining SIGTERM. A first line bounds a start
	// only 250 ms later (the runtime records the start after its start call returns), which the
	// Events here already beat.
	want := map[string][]milestoneView{
		"proxy": {
			{timeline.MStart, timeline.SourceStatus, []string{"status.initContainerStatuses[proxy].state.running.startedAt", "after Event Created", "Event Started (emitted just after the start)"}},
			{"listening", timeline.SourceLog, []string{"log line marked listening"}},
			{timeline.MExit, timeline.SourceStatus, []string{"status.initContainerStatuses[proxy].state.terminated.finishedAt", "last log line"}},
		},
		"app": {
			{timeline.MStart, timeline.SourceStatus, []string{"status.containerStatuses[app].state.running.startedAt", "after Event Created", "Event Started (emitted just after the start)"}},
			{timeline.MSigterm, timeline.SourceEvent, []string{"Event Killing", "log line marked sigterm"}},
			{timeline.MExit, timeline.SourceStatus, []string{"status.containerStatuses[app].state.terminated.finishedAt", "last log line"}},
			{"bye", timeline.SourceLog, []string{"log line marked bye"}},
		},
	}
	for name, ms := range want {
		var have []milestoneView
		for _, m := range got[name] {
			for _, w := range ms {
				if m.Kind == w.Kind {
					have = append(have, m)
				}
			}
		}
		if diff := cmp.Diff(have, ms); diff != "" {
			t.Errorf("%s's milestones (-got +want):\n%s", name, diff)
		}
	}
	// The app's exit: no earlier than 100 ms before its last line, no later than the second
	// after its finishedAt.
	for _, r := range s.Pods.At(0).Containers[2].Runs.Items() {
		for _, m := range r.Milestones {
			if m.Kind == timeline.MExit {
				if lo := r.Log.Last.Add(-100 * time.Millisecond); !m.Earliest.Equal(lo) || m.Latest.Sub(m.Earliest) > 500*time.Millisecond {
					t.Errorf("app exit in [%v, %v]; want from %v, under 500 ms wide", m.Earliest, m.Latest, lo)
				}
			}
		}
	}
}
