package agent

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/source"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// listedFirst is a recording that says its first list is in before its first item: every pod
// it holds becomes final after the agent's first list, as on a cluster watched from before.
type listedFirst struct {
	watch.Source
	said bool
}

func (s *listedFirst) Next(ctx context.Context) (watch.Item, error) {
	if !s.said {
		s.said = true
		return watch.Item{Object: watch.NewNote(watch.Listed, "")}, nil
	}
	return s.Source.Next(ctx)
}

// listedLast says its first list is in after its last item, then ends: every pod is final
// in the first list.
type listedLast struct {
	watch.Source
	said bool
}

func (s *listedLast) Next(ctx context.Context) (watch.Item, error) {
	it, err := s.Source.Next(ctx)
	if err == io.EOF && !s.said {
		s.said = true
		return watch.Item{Object: watch.NewNote(watch.Listed, "")}, nil
	}
	return it, err
}

func reader(t *testing.T, name string) watch.Source {
	t.Helper()
	b, err := recordings.Bytes(name)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := recfile.NewReader(bytes.NewReader(b), name, recfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rd.Close() })
	return items{rd}
}

// items is a recording's reader standing in for live informers: its items, which the agent's
// feed translates as it translates a watch's.
type items struct{ rd *recfile.Reader }

func (s items) Next(ctx context.Context) (watch.Item, error) {
	r, err := s.rd.Next(ctx)
	return r.Item, err
}

// replayed is the recording's final timeline as replay shows it.
func replayed(t *testing.T, name string) timeline.Snapshot {
	t.Helper()
	b, err := recordings.Bytes(name)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := source.Play(context.Background(), bytes.NewReader(b), name)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Final
}

// quiet is a logger for tests: what it writes goes to the test's log.
func quiet(t *testing.T) *slog.Logger {
	return slog.New(slog.NewJSONHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(b)))
	return len(b), nil
}

// run plays the sources through one agent, leading or not, and returns its metrics.
func run(t *testing.T, leader bool, cfg Config, srcs ...watch.Source) (*Agent, *Metrics) {
	t.Helper()
	m := NewMetrics("test")
	cfg.Log = quiet(t)
	if cfg.MaxOwners == 0 {
		cfg.MaxOwners = 1000
	}
	a := New(cfg, m)
	a.SetLeader(leader)
	for _, src := range srcs {
		if err := a.Run(context.Background(), src); err != nil {
			t.Fatal(err)
		}
	}
	return a, m
}

// histograms are the histograms of a family by their labels, written name=value,...
func histograms(t *testing.T, m *Metrics, name string) map[string]*dto.Histogram {
	t.Helper()
	out := map[string]*dto.Histogram{}
	for _, f := range gather(t, m) {
		if f.GetName() != name {
			continue
		}
		for _, mt := range f.Metric {
			out[labelsOf(mt)] = mt.Histogram
		}
	}
	return out
}

// counters are a counter family's values by their labels.
func counters(t *testing.T, m *Metrics, name string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, f := range gather(t, m) {
		if f.GetName() == name {
			for _, mt := range f.Metric {
				out[labelsOf(mt)] = mt.GetCounter().GetValue()
			}
		}
	}
	return out
}

func gather(t *testing.T, m *Metrics) []*dto.MetricFamily {
	t.Helper()
	fams, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

func labelsOf(mt *dto.Metric) string {
	var parts []string
	for _, l := range mt.Label {
		parts = append(parts, l.GetName()+"="+l.GetValue())
	}
	return strings.Join(parts, ",")
}

// want is what the agent should observe of a final snapshot's pods: each gap's values, by its
// labels, and the pods by owner.
func want(s timeline.Snapshot) (gaps map[string][]float64, widths map[string][]float64, pods map[string]float64) {
	gaps, widths, pods = map[string][]float64{}, map[string][]float64{}, map[string]float64{}
	for _, p := range s.Pods.Items() {
		if !play.Final(p) {
			continue
		}
		kind, owner := ownerLabels(p)
		pods[fmt.Sprintf("namespace=%s,owner=%s,owner_kind=%s", p.Namespace, owner, kind)]++
		for _, g := range p.Gaps {
			key := fmt.Sprintf("gap=%s,namespace=%s,owner=%s,owner_kind=%s,role=%s", gapLabel(g.Name), p.Namespace, owner, kind, roleOf(p, g.To))
			gaps[key] = append(gaps[key], g.Span.Value.Seconds())
			if g.Span.Bounded() {
				widths[key] = append(widths[key], (g.Span.Max - g.Span.Min).Seconds())
			}
		}
	}
	return gaps, widths, pods
}

// ownerLabels is the owner of a recorded pod as the labels write it, from its OwnerRef.
func ownerLabels(p *timeline.Pod) (kind, name string) {
	if p.Owner == nil {
		return "", ""
	}
	return p.Owner.Kind, p.Owner.Name
}

// checkHistograms checks that each series counts the pods having its gap and sums their values.
func checkHistograms(t *testing.T, got map[string]*dto.Histogram, want map[string][]float64) {
	t.Helper()
	for key, vals := range want {
		h := got[key]
		if h == nil {
			t.Errorf("no series %s; have %v", key, keys(got))
			continue
		}
		sum := 0.0
		for _, v := range vals {
			sum += v
		}
		if h.GetSampleCount() != uint64(len(vals)) || math.Abs(h.GetSampleSum()-sum) > 1e-9 {
			t.Errorf("%s: count %d sum %g, want %d and %g", key, h.GetSampleCount(), h.GetSampleSum(), len(vals), sum)
		}
	}
	for key := range got {
		if _, ok := want[key]; !ok {
			t.Errorf("series %s not expected", key)
		}
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestGapsOfEveryRecording plays each recording through the agent and checks that each gap
// histogram counts the pods having that gap, with the values replay derives.
func TestGapsOfEveryRecording(t *testing.T) {
	withFinal := 0
	for _, name := range recordings.Names() {
		t.Run(name, func(t *testing.T) {
			_, m := run(t, true, Config{OwnerNames: true}, &listedFirst{Source: reader(t, name)})
			gaps, widths, pods := want(replayed(t, name))
			if len(gaps) > 0 {
				withFinal++
			}
			checkHistograms(t, histograms(t, m, "sidecar_top_gap_seconds"), gaps)
			checkHistograms(t, histograms(t, m, "sidecar_top_gap_uncertainty_seconds"), widths)
			if got := counters(t, m, "sidecar_top_pods_final_total"); !mapsEqual(got, pods) {
				t.Errorf("pods final %v, want %v", got, pods)
			}
		})
	}
	if withFinal < 3 {
		t.Errorf("only %d recordings have a final pod with gaps: the test checks too little", withFinal)
	}
}

func mapsEqual(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestFindingsAndRestarts checks the counters against the replayed pods' findings and restarts.
func TestFindingsAndRestarts(t *testing.T) {
	for _, name := range []string{"crashing-sidecar", "startup-probe", "job-classic-sidecar"} {
		t.Run(name, func(t *testing.T) {
			_, m := run(t, true, Config{OwnerNames: true}, &listedFirst{Source: reader(t, name)})
			findings, restarts := map[string]float64{}, map[string]float64{}
			for _, p := range replayed(t, name).Pods.Items() {
				if !play.Final(p) {
					continue
				}
				for _, f := range p.Findings() {
					findings["id="+string(f.ID)+",namespace="+p.Namespace]++
				}
				for _, c := range p.Containers {
					if c.RestartCount > 0 {
						restarts["namespace="+p.Namespace+",role="+string(c.Kind)] += float64(c.RestartCount)
					}
				}
			}
			if got := counters(t, m, "sidecar_top_findings_total"); !mapsEqual(got, findings) {
				t.Errorf("findings %v, want %v", got, findings)
			}
			if got := counters(t, m, "sidecar_top_container_restarts_total"); !mapsEqual(got, restarts) {
				t.Errorf("restarts %v, want %v", got, restarts)
			}
		})
	}
}

// TestCountedOnce replays the same final pods twice into one agent, as a relist brings them
// again: each is counted once, whether its timeline is still kept or only its UID is
// (--keep-finished 0 forgets it at once).
func TestCountedOnce(t *testing.T) {
	for _, keep := range []time.Duration{time.Hour, 0} {
		t.Run(keep.String(), func(t *testing.T) {
			for _, name := range []string{"termination-order", "job-native-sidecar"} {
				a, m := run(t, true, Config{OwnerNames: true, KeepFinished: keep}, &listedFirst{Source: reader(t, name)}, reader(t, name))
				gaps, _, pods := want(replayed(t, name))
				checkHistograms(t, histograms(t, m, "sidecar_top_gap_seconds"), gaps)
				if got := counters(t, m, "sidecar_top_pods_final_total"); !mapsEqual(got, pods) {
					t.Errorf("%s: pods final %v, want %v (once each)", name, got, pods)
				}
				if kept := a.e.Snapshot().Pods.Len(); keep == 0 && kept != 0 {
					t.Errorf("%s: --keep-finished 0 kept %d pods' timelines", name, kept)
				}
			}
		})
	}
}

// TestStandbyCountsNothing: a standby watches the same pods and counts none.
func TestStandbyCountsNothing(t *testing.T) {
	_, m := run(t, false, Config{OwnerNames: true}, &listedFirst{Source: reader(t, "job-native-sidecar")})
	if got := histograms(t, m, "sidecar_top_gap_seconds"); len(got) != 0 {
		t.Errorf("a standby observed %v", keys(got))
	}
	if got := counters(t, m, "sidecar_top_pods_final_total"); len(got) != 0 {
		t.Errorf("a standby counted %v", got)
	}
}

// TestFinalInFirstListSkipped: pods already final when the first list is in were counted by
// whoever led then.
func TestFinalInFirstListSkipped(t *testing.T) {
	a, m := run(t, true, Config{OwnerNames: true}, &listedLast{Source: reader(t, "job-native-sidecar")})
	if !a.Ready() {
		t.Fatal("not ready after the first list")
	}
	if got := counters(t, m, "sidecar_top_pods_final_total"); len(got) != 0 {
		t.Errorf("counted pods final in the first list: %v", got)
	}
}

func TestMain(m *testing.M) {
	time.Local = time.UTC
	m.Run()
}
