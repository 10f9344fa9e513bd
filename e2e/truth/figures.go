//go:build e2e

package main

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// figures are what the logs bring, over every scenario: how wide the tool's intervals are with
// and without them, and the distances on the node that the tool's log rules rest on (each run's
// lines against containerd's own stamps and the kubelet's kill line).
type figures struct {
	startAPI, start []time.Duration // widths of the starts of runs that print a line first thing
	exitAPI, exit   []time.Duration // widths of the exits of runs that print a line as their last act
	plusAPI, plus   []time.Duration // the ± of named gaps with an exact truth
	errAPI, err     []time.Duration // the size of their point estimate's error, |tool − truth|
	// sidecar SIGTERMs the kubelet's log placed: the interval's width, and the largest distance
	// from the tool's estimate to an instant the truth allows (between the kubelet's kill line
	// and the line the SIGTERM trap printed).
	sigtermWidth, sigtermErr []time.Duration
	firstLine                []time.Duration // a run's first line − containerd's startedAt
	lastLine                 []time.Duration // containerd's finishedAt − the line printed as the last act
	termLine                 []time.Duration // the SIGTERM trap's line − the kubelet's kill line
}

// figuresOf are one run's figures.
func figuresOf(sc harness.Scenario, r *harness.Run) figures {
	var f figures
	api, logs := r.Timeline.Pods[0], r.WithLogs.Pods[0]
	points := sc.PointsOf(r)
	width := func(p *timeline.Pod, pt harness.Point) (time.Duration, bool) {
		m := harness.FindMilestone(p, pt.Container, pt.Kind, pt.Attempt)
		if m == nil || m.Earliest.IsZero() || m.Latest.IsZero() {
			return 0, false
		}
		return m.Latest.Sub(m.Earliest), true
	}
	both := func(pt harness.Point, a, l *[]time.Duration) {
		wa, ok1 := width(api, pt)
		wl, ok2 := width(logs, pt)
		if ok1 && ok2 {
			*a, *l = append(*a, wa), append(*l, wl)
		}
	}
	for _, pt := range points {
		line, ok := r.Truth.Find(pt.Container, int(pt.Attempt), pt.Line)
		rt, known := r.Truth.RuntimeOf(pt.Container, int(pt.Attempt))
		if !ok || !known {
			continue
		}
		switch {
		case pt.Kind == timeline.MStart || pt.Kind == timeline.MRestart:
			both(pt, &f.startAPI, &f.start)
			if !rt.Started.IsZero() {
				f.firstLine = append(f.firstLine, line.At.Sub(rt.Started))
			}
		case pt.Kind == timeline.MExit && pt.Stamp == harness.Before:
			both(pt, &f.exitAPI, &f.exit)
			if !rt.Finished.IsZero() {
				f.lastLine = append(f.lastLine, rt.Finished.Sub(line.At))
			}
		case pt.Kind == timeline.MSigterm && !rt.Kill.IsZero():
			f.termLine = append(f.termLine, line.At.Sub(rt.Kill))
			c := harness.FindContainer(logs, pt.Container)
			m := harness.FindMilestone(logs, pt.Container, pt.Kind, pt.Attempt)
			if c != nil && c.Kind == timeline.KindSidecar && m != nil && m.Source == timeline.SourceKubelet {
				f.sigtermWidth = append(f.sigtermWidth, m.Latest.Sub(m.Earliest))
				f.sigtermErr = append(f.sigtermErr, max((m.At.Sub(rt.Kill)).Abs(), line.At.Sub(m.At).Abs()))
			}
		}
	}
	plus := func(p *timeline.Pod, out, errs *[]time.Duration) {
		for _, g := range p.Gaps {
			if t, ok := r.TruthOfGap(g, points); ok {
				*out = append(*out, g.Span.Plus())
				*errs = append(*errs, (g.Span.Value - t.Value).Abs())
			}
		}
	}
	plus(api, &f.plusAPI, &f.errAPI)
	plus(logs, &f.plus, &f.err)
	return f
}

// add joins o's figures to f's.
func (f *figures) add(o figures) {
	f.startAPI, f.start = append(f.startAPI, o.startAPI...), append(f.start, o.start...)
	f.exitAPI, f.exit = append(f.exitAPI, o.exitAPI...), append(f.exit, o.exit...)
	f.plusAPI, f.plus = append(f.plusAPI, o.plusAPI...), append(f.plus, o.plus...)
	f.errAPI, f.err = append(f.errAPI, o.errAPI...), append(f.err, o.err...)
	f.sigtermWidth, f.sigtermErr = append(f.sigtermWidth, o.sigtermWidth...), append(f.sigtermErr, o.sigtermErr...)
	f.firstLine = append(f.firstLine, o.firstLine...)
	f.lastLine = append(f.lastLine, o.lastLine...)
	f.termLine = append(f.termLine, o.termLine...)
}

// print prints the figures: each set's spread, and how many meet issue 8's targets.
func (f figures) print(out io.Writer) {
	fmt.Fprintln(out, "With logs: how wide, against issue 8's targets")
	fmt.Fprintln(out)
	fmt.Fprintf(out, "start of a run that prints a line first thing (interval width):\n  API only   %s\n  with logs  %s; ≤ 20 ms: %s\n",
		spread(f.startAPI), spread(f.start), within(f.start, 20*time.Millisecond))
	fmt.Fprintf(out, "exit of a run that prints a line as its last act (interval width):\n  API only   %s\n  with logs  %s; ≤ 20 ms: %s\n",
		spread(f.exitAPI), spread(f.exit), within(f.exit, 20*time.Millisecond))
	fmt.Fprintf(out, "named gap with an exact truth (±):\n  API only   %s\n  with logs  %s; ≤ 50 ms: %s\n",
		spread(f.plusAPI), spread(f.plus), within(f.plus, 50*time.Millisecond))
	fmt.Fprintf(out, "named gap with an exact truth, its point estimate's error (|tool − truth|; issue 43: p90 ≤ 20 ms, largest ≤ 50 ms):\n"+
		"  API only   %s\n  with logs  %s; ≤ 20 ms: %s; ≤ 50 ms: %s\n",
		spread(f.errAPI), spread(f.err), within(f.err, 20*time.Millisecond), within(f.err, 50*time.Millisecond))
	fmt.Fprintf(out, "sidecar SIGTERM placed by the kubelet's log:\n  width      %s\n  largest distance from the estimate to the truth  %s; ≤ 5 ms: %s\n",
		spread(f.sigtermWidth), spread(f.sigtermErr), within(f.sigtermErr, 5*time.Millisecond))
	fmt.Fprintln(out)
	fmt.Fprintln(out, "Distances on the node (what the log rules rest on):")
	fmt.Fprintf(out, "  first line − containerd's startedAt                %s\n", spread(f.firstLine))
	fmt.Fprintf(out, "  containerd's finishedAt − the last line            %s\n", spread(f.lastLine))
	fmt.Fprintf(out, "  SIGTERM trap's line − the kubelet's kill line      %s\n", spread(f.termLine))
	fmt.Fprintln(out)
}

// spread prints a set of durations as n, min, median, 90th percentile and max, in ms.
func spread(ds []time.Duration) string {
	if len(ds) == 0 {
		return "n=0"
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return fmt.Sprintf("n=%d min %s p50 %s p90 %s max %s", len(s), millis(s[0]), millis(percentile(s, 0.5)),
		millis(percentile(s, 0.9)), millis(s[len(s)-1]))
}

// percentile is the p-th quantile of ds (nearest rank), 0 for none.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[int(p*float64(len(s)-1)+0.5)]
}

// within is "k of n" durations at most limit.
func within(ds []time.Duration, limit time.Duration) string {
	k := 0
	for _, d := range ds {
		if d <= limit {
			k++
		}
	}
	return fmt.Sprintf("%d of %d", k, len(ds))
}

func millis(d time.Duration) string {
	return fmt.Sprintf("%.1fms", float64(d.Round(100*time.Microsecond))/float64(time.Millisecond))
}
