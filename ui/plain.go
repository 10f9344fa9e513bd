package ui

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Plain prints timelines as plain text, for output that is not a terminal: one line per
// milestone as it becomes known, then a summary. It prints no escape sequences, and the same
// snapshots give the same text.
type Plain struct {
	w       io.Writer
	printed map[string]bool               // milestones printed, by plainKey
	last    map[string]timeline.Milestone // the last milestone printed, by pod or job UID
	notes   map[string]bool
	ownerW  int // the widest owner printed so far, to keep the columns aligned
	err     error
}

// NewPlain returns a Plain printer writing to w.
func NewPlain(w io.Writer) *Plain {
	return &Plain{w: w, printed: map[string]bool{}, last: map[string]timeline.Milestone{}, notes: map[string]bool{}}
}

// Err returns the first error writing to the output, if any.
func (p *Plain) Err() error { return p.err }

func (p *Plain) printf(format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, format, args...)
}

// plainMilestone is a milestone and the pod or job it belongs to.
type plainMilestone struct {
	owner, uid string // the pod's name or "job/<name>", and its UID
	lane       string
	m          timeline.Milestone
	order      int
}

// plainKey identifies a milestone across snapshots: a later count of the same Event is new.
func plainKey(pm plainMilestone) string {
	m := pm.m
	return fmt.Sprintf("%s|%s|%s|%d|%s|%d", pm.uid, pm.lane, m.Kind, m.Attempt, m.Reason, m.Count)
}

// Update prints the milestones of s not printed before, in time order, and notes about the
// data not printed before.
func (p *Plain) Update(s timeline.Snapshot) {
	var fresh []plainMilestone
	add := func(owner, uid, lane string, ms []timeline.Milestone) {
		for _, m := range ms {
			pm := plainMilestone{owner: owner, uid: uid, lane: lane, m: m, order: len(fresh)}
			if !p.printed[plainKey(pm)] {
				fresh = append(fresh, pm)
			}
		}
	}
	for _, pod := range s.Pods {
		add(pod.Name, pod.UID, "", pod.Milestones)
		for _, c := range pod.Containers {
			add(pod.Name, pod.UID, c.Name, c.Milestones)
		}
	}
	for _, j := range s.Jobs {
		add("job/"+j.Name, j.UID, "job", j.Milestones)
	}
	sort.SliceStable(fresh, func(i, j int) bool { return timeline.Before(&fresh[i].m, &fresh[j].m) })
	for _, pm := range fresh {
		p.printed[plainKey(pm)] = true
		p.printMilestone(pm)
		p.last[pm.uid] = pm.m
	}
	for _, n := range s.Notes {
		if !p.notes[n] {
			p.notes[n] = true
			p.printf("note: %s\n", n)
		}
	}
}

// printMilestone prints one milestone line: owner, offset ± bound, gap from the last printed
// milestone of the same owner, lane, kind, source and details.
func (p *Plain) printMilestone(pm plainMilestone) {
	m := pm.m
	gap := "-"
	if prev, ok := p.last[pm.uid]; ok {
		gap = "Δ" + fmtSpan(between(prev, m))
	}
	lane := pm.lane
	switch lane {
	case "":
		lane = "pod"
	case "job":
		lane = "-"
	}
	p.ownerW = max(p.ownerW, len([]rune(pm.owner)))
	line := fmt.Sprintf("%-*s  %-13s  %-14s  %-12s  %-12s  %-8s  %s", p.ownerW, pm.owner, fmtSpan(m.Offset), gap,
		lane, kindName(m), m.Source, detail(m))
	p.printf("%s\n", strings.TrimRight(line, " "))
}

// between is the time from milestone a to milestone b, bounded by their intervals.
func between(a, b timeline.Milestone) timeline.Span {
	s := timeline.Span{Value: b.At.Sub(a.At)}
	s.Min, s.Max = s.Value, s.Value
	if !a.Latest.IsZero() && !b.Earliest.IsZero() {
		s.Min = min(b.Earliest.Sub(a.Latest), s.Value)
	}
	if !a.Earliest.IsZero() && !b.Latest.IsZero() {
		s.Max = max(b.Latest.Sub(a.Earliest), s.Value)
	}
	return s
}

// Summary prints, for each pod, its containers, its STATUS sequence, its named gaps and its
// findings; then each job's status, conditions and findings.
func (p *Plain) Summary(s timeline.Snapshot) {
	for _, pod := range s.Pods {
		p.podSummary(pod)
	}
	for _, j := range s.Jobs {
		p.printf("job %s in %s: %s (active %d, succeeded %d, failed %d)", j.Name, j.Namespace, j.Status,
			j.Active, j.Succeeded, j.Failed)
		if j.Deleted {
			p.printf(", deleted")
		}
		p.printf("\n")
		var conds []string
		for _, m := range j.Milestones {
			if m.Kind == timeline.MCondition {
				conds = append(conds, m.Reason+" "+fmtSpan(m.Offset))
			}
		}
		if len(conds) > 0 {
			p.printf("  conditions: %s\n", strings.Join(conds, " → "))
		}
		p.findings(j.Findings)
	}
}

func (p *Plain) podSummary(pod timeline.Pod) {
	p.printf("pod %s in %s (uid %s)", pod.Name, pod.Namespace, pod.UID)
	if pod.Node != "" {
		p.printf(" on %s", pod.Node)
	}
	if pod.Owner != "" {
		p.printf(", owned by %s", pod.Owner)
	}
	p.printf(": %s, phase %s", pod.Status, pod.Phase)
	if pod.Deleted {
		p.printf(", deleted")
	}
	p.printf("\n")
	var seq []string
	for _, st := range pod.Statuses {
		seq = append(seq, st.Status+" "+fmtSigned(st.At.Sub(pod.Created)))
	}
	if len(seq) > 0 {
		p.printf("  status: %s\n", strings.Join(seq, " → "))
	}
	for _, c := range pod.Containers {
		p.printf("  %s (%s): %s", c.Name, c.Kind, c.State)
		if c.RestartCount > 0 {
			p.printf(", %d restarts", c.RestartCount)
		}
		p.printf("\n")
	}
	if len(pod.Gaps) > 0 {
		p.printf("  gaps:\n")
		w := 0
		for _, g := range pod.Gaps {
			w = max(w, len([]rune(g.Name)))
		}
		for _, g := range pod.Gaps {
			p.printf("    %s%s  %s\n", g.Name, strings.Repeat(" ", w-len([]rune(g.Name))), gapValue(g.Span))
		}
	}
	p.findings(pod.Findings)
}

func (p *Plain) findings(fs []timeline.Finding) {
	if len(fs) == 0 {
		return
	}
	p.printf("  findings:\n")
	for _, f := range fs {
		text := f.Text
		if f.Container != "" && !strings.Contains(text, f.Container) {
			text = f.Container + ": " + text
		}
		p.printf("    %s: %s\n", f.Severity, text)
	}
}
