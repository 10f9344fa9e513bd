//go:build linux

package main

import (
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/perf/perfproc"
)

// report prints a row per program and size, then each program's growth over the empty cluster.
func report(w io.Writer, c config, levels []*level) {
	fmt.Fprintf(w, "\nmode %s; every %d-th pod has a native sidecar; %d Events a pod; churn %d updates/s for %s\n"+
		"peak RSS is VmHWM once the program had read the cluster and was quiet; CPU/1k is its CPU during the churn per 1,000 updates written\n\n",
		c.mode, c.sidecarEvery, c.eventsPerPod, c.rate, c.churn)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "pods\tprogram\tlist\tready\tpeak RSS\tvs peer\tanon\tCPU/1k\tupdates/s\tkey→frame p50\tmax\tscrape p50\tmax\tsize\tnote\t")
	for _, l := range levels {
		peer := l.rows[len(l.rows)-1].settled.RSSKiB
		if c.mode == "view" && len(l.rows) > 1 {
			peer = l.rows[1].settled.RSSKiB // kubectl
		}
		for _, m := range l.rows {
			cpu1k, rate := "-", "-"
			if l.wrote > 0 {
				cpu1k = fmt.Sprintf("%.3f s", (m.after.CPU-m.settled.CPU)/float64(l.wrote)*1000)
				rate = fmt.Sprintf("%.0f", float64(l.wrote)/l.churnSecs)
			}
			kp, km := quantiles(m.keyFrames)
			sp, sm := quantiles(m.scrapes)
			size := "-"
			if m.scrapeBytes > 0 {
				size = fmt.Sprintf("%.1f MB", float64(m.scrapeBytes)/1e6)
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%.2f×\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", l.pods, m.name, ms(l.list), ms(m.ready),
				perfproc.MB(m.settled.RSSKiB), float64(m.settled.RSSKiB)/float64(peer), perfproc.MB(m.settled.AnonKiB),
				cpu1k, rate, kp, km, sp, sm, size, m.note)
		}
	}
	tw.Flush()
	growth(w, levels)
}

// growth prints each program's RSS increment over the empty cluster at each size, and the
// ratio of the last increment to the first.
func growth(w io.Writer, levels []*level) {
	if len(levels) < 3 || levels[0].pods != 0 {
		return // no empty cluster measured, or one level only above it
	}
	fmt.Fprintln(w, "\nRSS over the empty cluster's:")
	empty, first, last := levels[0], levels[1], levels[len(levels)-1]
	for i, m := range empty.rows {
		a := first.rows[i].settled.RSSKiB - m.settled.RSSKiB
		b := last.rows[i].settled.RSSKiB - m.settled.RSSKiB
		fmt.Fprintf(w, "  %-28s +%s at %d pods, +%s at %d: %.2f× for %.1f× the pods\n", m.name, perfproc.MB(a), first.pods,
			perfproc.MB(b), last.pods, float64(b)/float64(max(a, 1)), float64(last.pods)/float64(first.pods))
	}
}

// quantiles is the median and the largest of ds, in milliseconds; "-" when there are none.
func quantiles(ds []time.Duration) (string, string) {
	if len(ds) == 0 {
		return "-", "-"
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return ms(s[len(s)/2]), ms(s[len(s)-1])
}

func ms(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond))
}
