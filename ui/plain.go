package ui

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// Plain prints timelines as plain text, for output that is not a terminal: one line per
// milestone in the order of their estimates, then a summary. It prints no escape sequences,
// and the same snapshots and times give the same text.
//
// A milestone becomes known up to a couple of seconds after its estimate (see plainHorizon), so
// Update only learns the milestones of a snapshot; Advance prints those whose estimate lies a
// horizon before the time given, in estimate order; Flush (and Summary) prints the rest. Each
// Update reads only what changed since the last one: the pods, runs and blocks of the pod row
// that the snapshots do not share. A milestone's line is printed once, with its estimate when
// printed: one that moves later is not printed again (the summary and JSON have final values).
type Plain struct {
	w       io.Writer
	pods    map[string]*plainPod               // by pod UID
	seen    timeline.Seq[*timeline.Pod]        // the pods of the last snapshot, in its order
	jobs    map[string]map[plainKey]*plainLine // the lines known, by job UID
	last    map[string]timeline.Milestone      // the last milestone printed, by pod or job UID
	notes   map[string]bool
	held    heldLines // the lines known and not printed, the earliest first
	seq     int       // lines known so far, to keep ties in the order they became known
	ownerW  int       // the widest owner known so far, to keep the columns aligned
	explain bool      // print each milestone's why
	err     error
	printed int
}

// plainPod is what Plain has seen of one pod.
type plainPod struct {
	pod   *timeline.Pod
	runs  map[string]timeline.Seq[*timeline.Run] // the lanes' runs as last seen, by container
	lines map[plainKey]*plainLine                // the lines known
}

// plainKey identifies a milestone across snapshots: a later count of the same Event is new,
// and so is each ready (or not-ready) of the pod row.
type plainKey struct {
	lane    string
	kind    timeline.MilestoneKind
	attempt int32
	reason  string
	count   int32
	nth     int       // the job lane's nth milestone of the kind
	at      time.Time // the pod row's ready and not-ready: when
	// received tells apart a run's probe failures and back-offs, a milestone for each update of
	// their Event (see laneKey): when that update was received.
	received time.Time
}

// laneKey is the key of milestone m of lane c. Two Events of one probe (their messages differ)
// each count from 1: their failures differ by when their updates were received.
func laneKey(c string, m *timeline.Milestone) plainKey {
	k := plainKey{lane: c, kind: m.Kind, attempt: m.Attempt, reason: m.Reason, count: m.Count}
	if (m.Kind == timeline.MProbeFailed || m.Kind == timeline.MBackOff) && len(m.Evidence) > 0 {
		k.received = m.Evidence[0].Received
	}
	return k
}

// NewPlain returns a Plain printer writing to w.
func NewPlain(w io.Writer) *Plain {
	return &Plain{w: w, pods: map[string]*plainPod{}, jobs: map[string]map[plainKey]*plainLine{},
		last: map[string]timeline.Milestone{}, notes: map[string]bool{}}
}

// SetExplain says whether each milestone line ends with what explains its time (Milestone.Why),
// and each gap of the summary with the gap's.
func (p *Plain) SetExplain(on bool) { p.explain = on }

// Err returns the first error writing to the output, if any.
func (p *Plain) Err() error { return p.err }

func (p *Plain) printf(format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, format, args...)
}

// plainMilestone is a milestone to print and the pod or job it belongs to.
type plainMilestone struct {
	owner, uid string // the pod's name or "job/<name>", and its UID
	lane       string
	m          *timeline.Milestone
	times      *podTimes // the pod's; nil for a job's milestone, whose offsets are the timeline's
}

// Update learns the milestones of s not known before (and the new estimates of those known and
// not printed yet), and prints the notes about the data not printed before. It prints no
// milestone: Advance does.
func (p *Plain) Update(s timeline.Snapshot) {
	for i, pp := range s.Pods.ChangedSince(p.seen) { // the blocks of pods seen are skipped whole
		if pod := *pp; i >= p.seen.Len() || p.seen.At(i) != pod {
			p.podFresh(pod) // not learned from the last snapshot: a Job's thousand pods cost no look-up each
		}
	}
	p.seen = s.Pods
	for _, j := range s.Jobs {
		lines := p.jobs[j.UID]
		if lines == nil {
			lines = map[plainKey]*plainLine{}
			p.jobs[j.UID] = lines
		}
		owner := "job/" + present.Safe(j.Name)
		p.ownerW = max(p.ownerW, cellWidth(owner))
		nth := map[timeline.MilestoneKind]int{}
		for i := range j.Milestones {
			m := &j.Milestones[i]
			k := plainKey{lane: "job", kind: m.Kind, reason: m.Reason, count: m.Count, nth: nth[m.Kind]}
			nth[m.Kind]++
			p.learn(lines, k, plainMilestone{owner: owner, uid: j.UID, lane: "job", m: m})
		}
	}
	for _, n := range s.Notes {
		p.note(n)
	}
}

// note prints a note about the data once.
func (p *Plain) note(n string) {
	if !p.notes[n] {
		p.notes[n] = true
		p.printf("note: %s\n", present.Safe(n))
	}
}

// podFresh learns the milestones of pod: only the pod row's changed blocks and the lanes'
// changed runs are read.
func (p *Plain) podFresh(pod *timeline.Pod) {
	pp := p.pods[pod.UID]
	if pp == nil {
		pp = &plainPod{runs: map[string]timeline.Seq[*timeline.Run]{}, lines: map[plainKey]*plainLine{}}
		p.pods[pod.UID] = pp
	}
	if pp.pod == pod {
		return
	}
	var old timeline.Seq[timeline.Milestone]
	if pp.pod != nil {
		old = pp.pod.Milestones
	}
	owner := present.Safe(pod.Name)
	p.ownerW = max(p.ownerW, cellWidth(owner))
	pt := newPodTimes(pod)
	if pt.noCreation {
		p.note("pod " + pod.Name + " has no creation time (or an absurd one): its offsets are from when it was first seen")
	}
	for _, m := range pod.Milestones.ChangedSince(old) {
		k := plainKey{kind: m.Kind, reason: m.Reason, count: m.Count}
		if m.Kind == timeline.MReady || m.Kind == timeline.MNotReady {
			k.at = m.At // the pod row has one per change of the Ready condition
		}
		p.learn(pp.lines, k, plainMilestone{owner: owner, uid: pod.UID, m: m, times: &pt})
	}
	for ci := range pod.Containers {
		c := &pod.Containers[ci]
		seen := pp.runs[c.Name]
		for ri, rp := range c.Runs.ChangedSince(seen) { // the blocks of runs seen are skipped whole
			r := *rp
			if ri < seen.Len() && seen.At(ri) == r {
				continue
			}
			for i := range r.Milestones {
				m := &r.Milestones[i]
				p.learn(pp.lines, laneKey(c.Name, m), plainMilestone{owner: owner, uid: pod.UID, lane: c.Name, m: m, times: &pt})
			}
		}
		pp.runs[c.Name] = c.Runs
	}
	pp.pod = pod
}

// Plain's columns: an offset (value and ±) and a gap hold up to +9h59m59s ±9m59.9s and keep
// their place past a minute; a longer one, or a name longer than its column, pushes the rest
// of its line along.
var (
	plainOffset = spanCol{val: len("+9h59m59s"), plus: len("±9m59.9s") - 1}
	plainGap    = spanCol{prefix: "Δ", val: len("Δ+9h59m59s") - 1, plus: len("±9m59.9s") - 1}
)

// printMilestone prints one milestone line: owner, offset ± bound, gap from the last printed
// milestone of the same owner, lane, kind, source and details.
func (p *Plain) printMilestone(pm plainMilestone) {
	m := *pm.m
	offset, placed := textfmt.Span(m.Offset), true
	if pt := pm.times; pt != nil {
		placed = pt.placed(m.At)
		offset = pt.fmtAt(m.At)
	}
	if placed {
		s := m.Offset
		if pm.times != nil {
			s = pm.times.offset(&m)
		}
		offset = plainOffset.format(s)
	}
	gap := padLeft("-", plainGap.val)
	if prev, ok := p.last[pm.uid]; ok && placed && (pm.times == nil || pm.times.placed(prev.At)) {
		gap = plainGap.format(between(prev, m))
	}
	lane := present.Safe(pm.lane)
	switch pm.lane {
	case "":
		lane = "pod"
	case "job":
		lane = "-"
	}
	cells := []string{padCells(pm.owner, p.ownerW), padCells(offset, plainOffset.width()), padCells(gap, plainGap.width()),
		padCells(lane, 12), padCells(kindName(m), 12), padCells(present.Safe(string(m.Source)), 8), detail(m)}
	if p.explain && m.Why != "" {
		if cells[len(cells)-1] == "" {
			cells = cells[:len(cells)-1]
		}
		cells = append(cells, "why: "+safeFields(m.Why))
	}
	line := strings.Join(cells, "  ")
	p.printf("%s\n", strings.TrimRight(line, " "))
	p.printed++
}

// padCells fills s with spaces up to width cells; a longer s is kept whole.
func padCells(s string, width int) string {
	if w := cellWidth(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
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

// Summary prints the lines still held (as Flush), then, for each pod, its containers, its
// STATUS sequence, its named gaps and its findings; then each job's status, conditions and
// findings.
func (p *Plain) Summary(s timeline.Snapshot) {
	p.Flush()
	for _, pod := range s.Pods.Items() {
		p.podSummary(pod)
	}
	for _, j := range s.Jobs {
		p.printf("job %s in %s: %s (active %d, succeeded %d, failed %d)", present.Safe(j.Name), present.Safe(j.Namespace), present.Safe(j.Status),
			j.Active, j.Succeeded, j.Failed)
		if j.Deleted {
			p.printf(", deleted")
		}
		p.printf("\n")
		var conds []string
		for _, m := range j.Milestones {
			if m.Kind == timeline.MCondition {
				conds = append(conds, present.Safe(m.Reason)+" "+textfmt.Span(m.Offset))
			}
		}
		if len(conds) > 0 {
			p.printf("  conditions: %s\n", strings.Join(conds, " → "))
		}
		p.findings(s.JobFindings(j), "")
	}
}

func (p *Plain) podSummary(pod *timeline.Pod) {
	p.printf("pod %s in %s (uid %s)", present.Safe(pod.Name), present.Safe(pod.Namespace), present.Safe(pod.UID))
	if pod.Node != "" {
		p.printf(" on %s", present.Safe(pod.Node))
	}
	if pod.Owner != nil {
		p.printf(", owned by %s", present.Safe(pod.Owner.String()))
	}
	p.printf(": %s, phase %s", present.Safe(pod.Status), present.Safe(pod.Phase))
	if pod.Deleted {
		p.printf(", deleted")
	}
	p.printf("\n")
	pt := newPodTimes(pod)
	var seq []string
	for _, st := range pod.Statuses {
		seq = append(seq, present.Safe(st.Status)+" "+pt.fmtAt(st.At))
	}
	if len(seq) > 0 {
		p.printf("  status: %s\n", strings.Join(seq, " → "))
	}
	for _, c := range pod.Containers {
		p.printf("  %s (%s): %s", present.Safe(c.Name), present.Safe(string(c.Kind)), present.Safe(c.State))
		if c.RestartCount > 0 {
			p.printf(", %d restarts", c.RestartCount)
		}
		p.printf("\n")
	}
	if len(pod.Gaps) > 0 {
		p.printf("  gaps:\n")
		w, vw := 0, 0
		for _, g := range pod.Gaps {
			w, vw = max(w, cellWidth(present.Safe(g.Name))), max(vw, cellWidth(textfmt.Gap(g.Span)))
		}
		for _, g := range pod.Gaps {
			if p.explain && g.Why != "" {
				p.printf("    %s  %s  why: %s\n", padCells(present.Safe(g.Name), w), padCells(textfmt.Gap(g.Span), vw), safeFields(g.Why))
				continue
			}
			p.printf("    %s  %s\n", padCells(present.Safe(g.Name), w), textfmt.Gap(g.Span))
		}
	}
	p.findings(pod.Findings(), pod.Name)
}

// findings prints findings; those of a pod other than within name it.
func (p *Plain) findings(fs []timeline.Finding, within string) {
	if len(fs) == 0 {
		return
	}
	p.printf("  findings:\n")
	for _, f := range fs {
		p.printf("    %s: %s\n", present.Safe(string(f.Severity)), present.Safe(f.Line(within)))
	}
}
