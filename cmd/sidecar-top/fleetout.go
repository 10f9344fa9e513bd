package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sidecar-top/sidecar-top/fleet"
	"github.com/sidecar-top/sidecar-top/internal/jsonsafe"
	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// fleetOut writes a scope's table without a terminal: --plain prints the table once what was
// there when the watch began is in (Frame.Listed), then one line per row that changes; -o json
// (or yaml) prints one document then and is done; -o jsonl prints, from then on, one JSON object per
// milestone or finding as it is learnt.
type fleetOut struct {
	w      io.Writer
	format string // "plain", "json" or "jsonl"
	scope  string
	view   fleet.View
	rows   fleet.Rows
	last   map[string]string          // plain: each row's line as printed, by UID
	seen   map[string]map[string]bool // jsonl: what was printed, by UID, then key
	pods   map[*timeline.Pod]bool     // jsonl: the pods of the last frame, unchanged since if shared
	done   bool                       // json: printed
	err    error
}

func newFleetOut(w io.Writer, format, scope string, sidecarsOnly bool) *fleetOut {
	return &fleetOut{w: w, format: format, scope: scope, last: map[string]string{}, seen: map[string]map[string]bool{},
		view: fleet.View{SidecarsOnly: sidecarsOnly, Sort: fleet.KeyPod}}
}

// frame takes a frame of the live watch.
func (o *fleetOut) frame(f play.Frame) {
	if o.err != nil || o.done {
		return
	}
	if !f.Listed {
		return
	}
	switch o.format {
	case "json":
		o.json(fleet.DocumentOf(o.table(f.Snapshot), o.scope, f.Now))
		o.done = true
	case "yaml":
		o.err = writeYAML(o.w, func(w io.Writer) error {
			b, err := json.Marshal(fleet.DocumentOf(o.table(f.Snapshot), o.scope, f.Now))
			if err == nil {
				_, err = w.Write(b)
			}
			return err
		})
		o.done = true
	case "jsonl":
		o.jsonl(f.Snapshot)
	default:
		o.plain(o.table(f.Snapshot), f.Now)
	}
}

// table is the table of s's pods, and of those it only counts (Snapshot.Hidden, Forgotten).
func (o *fleetOut) table(s timeline.Snapshot) fleet.Table {
	t := fleet.Make(o.rows.Of(s, nil), o.view)
	t.Counts = t.Counts.WithOnlyCounted(s.Hidden, s.Forgotten)
	return t
}

// Done reports whether the output has all it will print (-o json, -o yaml).
func (o *fleetOut) Done() bool { return o.done || o.err != nil }

// plain prints the table the first time, then each row whose line changed (its AGE aside).
func (o *fleetOut) plain(t fleet.Table, now time.Time) {
	tw := tabwriter.NewWriter(o.w, 2, 8, 2, ' ', 0)
	first := len(o.last) == 0
	if first {
		fmt.Fprintf(tw, "%s\n", strings.Join(fleet.Titles[:], "\t"))
	}
	if len(o.last) > len(o.rows.Last()) {
		forgetGone(o.last, uidsOf(o.rows.Last()))
	}
	for _, r := range t.Rows {
		c := r.Cells(now)
		line := strings.Join(c[:], "\t")
		key := strings.Join(append(c[:fleet.KeyAge:fleet.KeyAge], c[fleet.KeyAge+1:]...), "\t")
		if o.last[r.UID] == key {
			continue
		}
		o.last[r.UID] = key
		fmt.Fprintf(tw, "%s\n", line)
	}
	if first {
		fmt.Fprintf(tw, "# %s: %d pods, %d with a native sidecar, %d classic, %d hidden\n", present.Safe(o.scope),
			t.Counts.Pods, t.Counts.Native, t.Counts.Classic, t.Counts.Hidden)
	}
	o.err = tw.Flush()
}

// json prints one value on a line, escaped as every JSON output is (jsonsafe).
func (o *fleetOut) json(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		o.err = err
		return
	}
	_, o.err = o.w.Write(append(jsonsafe.Escape(b), '\n'))
}

// fleetMilestone is one line of -o jsonl for a milestone.
type fleetMilestone struct {
	Type      string `json:"type"` // "milestone"
	Namespace string `json:"namespace"`
	Pod       string `json:"pod"`
	UID       string `json:"uid"`
	timeline.Milestone
}

// fleetFinding is one line of -o jsonl for a finding.
type fleetFinding struct {
	Type      string `json:"type"` // "finding"
	Namespace string `json:"namespace"`
	UID       string `json:"uid"`
	timeline.Finding
}

// jsonl prints the milestones and findings of the snapshot's pods not printed before: a
// milestone once, when it is first known, by its pod, container, kind, run and which of that
// kind in the run it is. A pod the last frame shared is passed over.
func (o *fleetOut) jsonl(s timeline.Snapshot) {
	pods := make(map[*timeline.Pod]bool, s.Pods.Len())
	for _, p := range s.Pods.Items() {
		pods[p] = true
		if !o.pods[p] {
			o.jsonlPod(p)
		}
	}
	o.pods = pods
	if len(o.seen) > s.Pods.Len() {
		have := make(map[string]bool, len(pods))
		for p := range pods {
			have[p.UID] = true
		}
		forgetGone(o.seen, have)
	}
}

// jsonlPod prints the milestones and findings of p not printed before.
func (o *fleetOut) jsonlPod(p *timeline.Pod) {
	seen := o.seen[p.UID]
	if seen == nil {
		seen = map[string]bool{}
		o.seen[p.UID] = seen
	}
	nth := map[string]int{} // a kind may come more than once in a run (not-ready, a probe's repeats)
	for _, r := range p.Rows() {
		m := r.Milestone
		key := fmt.Sprintf("m %s %s %d", m.Container, m.Kind, m.Attempt)
		nth[key]++
		key += fmt.Sprintf(" #%d", nth[key])
		if !seen[key] {
			seen[key] = true
			o.json(fleetMilestone{"milestone", p.Namespace, p.Name, p.UID, *m})
		}
	}
	for _, f := range p.Findings() {
		key := fmt.Sprintf("f %s %s", f.ID, f.Container)
		if !seen[key] {
			seen[key] = true
			o.json(fleetFinding{"finding", p.Namespace, p.UID, f})
		}
	}
}

// forgetGone lets go of what byUID keeps of the pods not in have: those the run let go of
// (--keep-finished), which do not come back. It costs the scope: the callers call it only when
// byUID holds more pods than the snapshot.
func forgetGone[V any](byUID map[string]V, have map[string]bool) {
	for uid := range byUID {
		if !have[uid] {
			delete(byUID, uid)
		}
	}
}

// uidsOf is the set of the UIDs of rows.
func uidsOf(rows []*fleet.Row) map[string]bool {
	have := make(map[string]bool, len(rows))
	for _, r := range rows {
		have[r.UID] = true
	}
	return have
}
