package timeline

import (
	"strconv"
	"time"
)

// logLate bounds how long after a container wrote a line the runtime stamped it (it reads the
// pipe as lines come). A line written as the last act before exiting can be stamped after the
// exit by as much.
const logLate = 100 * time.Millisecond

// kubeletSignalLate bounds how long after the kubelet logged that it stops a container the
// runtime sends the SIGTERM: the kubelet asks the runtime right after it logs it.
const kubeletSignalLate = 50 * time.Millisecond

// logRun is what the Builder keeps of one run's log: stamps, not text (but for marked lines).
type logRun struct {
	fromStart   bool
	first, last time.Time
	lines       int
	marks       []LogLine
	perSecond   seqBuilder[LogCount]
	ended       *seen // the observation that said the log was over
}

// LogCount is how many lines a run wrote in one second of its life, for the lane's density.
type LogCount struct {
	At    time.Time `json:"at"` // the second
	Lines int       `json:"lines"`
}

// RunLog is what a run's log says, as the snapshot has it.
type RunLog struct {
	First     time.Time     `json:"first,omitzero"` // the first line's stamp, when the log was read from its start
	Last      time.Time     `json:"last"`
	Lines     int           `json:"lines"`
	PerSecond Seq[LogCount] `json:"perSecond"`
}

// logKey names a run's log: by container ID, else by attempt.
func logKey(id string, attempt int32) string {
	if id != "" {
		return id
	}
	return "#" + strconv.Itoa(int(attempt))
}

// addLog files what a run's log said and marks the run for derivation again.
func (ls *laneState) addLog(r time.Time, o *LogObservation) {
	if ls.logs == nil {
		ls.logs = map[string]*logRun{}
	}
	key := logKey(o.ContainerID, o.Attempt)
	lr := ls.logs[key]
	if lr == nil {
		lr = &logRun{fromStart: o.FromStart}
		ls.logs[key] = lr
	}
	for _, l := range o.Lines {
		if lr.lines == 0 {
			lr.first = l.At
		}
		lr.lines++
		lr.last = later(lr.last, l.At)
		sec := l.At.Truncate(time.Second)
		if n := lr.perSecond.len(); n > 0 && lr.perSecond.at(n-1).At.Equal(sec) {
			c := *lr.perSecond.at(n - 1)
			c.Lines++
			lr.perSecond.set(n-1, c)
		} else {
			lr.perSecond.insert(n, LogCount{sec, 1})
		}
		if l.Mark != "" {
			lr.marks = append(lr.marks, l)
		}
	}
	if o.End && lr.ended == nil {
		lr.ended = &seen{at: r}
	}
	ls.touch(ls.attemptOf(o.ContainerID, o.Attempt))
}

// addKubelet files the kubelet's line that it stops a container.
func (ls *laneState) addKubelet(o *KubeletObservation) {
	if ls.stops == nil {
		ls.stops = map[string]*KubeletObservation{}
	}
	if _, ok := ls.stops[o.ContainerID]; !ok {
		ls.stops[o.ContainerID] = o
		ls.touch(ls.attemptOf(o.ContainerID, -1))
	}
}

// attemptOf is the attempt of the run with this container ID (or the attempt given), or 0 when
// neither says: the run is derived again once its status comes.
func (ls *laneState) attemptOf(id string, attempt int32) int32 {
	if in := ls.byID[id]; id != "" && in != nil {
		return in.attempt
	}
	return max(attempt, 0)
}

// logOf is run a's log, if any was read: by its container ID, else by its attempt.
func (ls *laneState) logOf(in *instance, a int32) *logRun {
	if ls.logs == nil {
		return nil
	}
	if in != nil && in.id != "" {
		if lr := ls.logs[in.id]; lr != nil {
			return lr
		}
	}
	return ls.logs[logKey("", a)]
}

// logEvidence tightens a run's milestones with its log: the run started before its first line
// and exited after its last (less logLate); its log ended after it exited. Marked lines refine
// the milestone they are named after, or become milestones of their own.
func (d *deriver) logEvidence(spec ContainerObservation, a int32, ms []Milestone, lr *logRun) []Milestone {
	if lr == nil || lr.lines == 0 {
		return ms
	}
	if start := findMilestone(ms, startKind(a), a); start != nil && lr.fromStart {
		d.tighten(start, time.Time{}, lr.first, Evidence{What: "first log line", At: lr.first,
			Note: "a run writes its first line after it starts"})
	}
	if exit := findMilestone(ms, MExit, a); exit != nil {
		d.tighten(exit, lr.last.Add(-logLate), time.Time{}, Evidence{What: "last log line", At: lr.last,
			Note: "a run exits after it writes its last line (stamped up to 100 ms late)"})
		if lr.ended != nil {
			d.tighten(exit, time.Time{}, lr.ended.at, Evidence{What: "log stream ended", Received: lr.ended.at})
		}
	}
	for _, l := range lr.marks {
		ms = d.markMilestone(spec, a, ms, l)
	}
	return ms
}

// markMilestone applies one marked line: to the built-in milestone it is named after, as a bound
// (start and sigterm come before the line is stamped, ready and exit after it was written), or
// as a milestone of the app's own.
func (d *deriver) markMilestone(spec ContainerObservation, a int32, ms []Milestone, l LogLine) []Milestone {
	ev := Evidence{What: "log line marked " + l.Mark, At: l.At, Note: l.Text}
	kind := MilestoneKind(l.Mark)
	if kind == MStart {
		kind = startKind(a)
	}
	switch kind {
	case MStart, MRestart, MSigterm:
		if m := findMilestone(ms, kind, a); m != nil {
			d.tighten(m, time.Time{}, l.At, ev)
			return ms
		}
	case MReady, MExit:
		if m := findMilestone(ms, kind, a); m != nil {
			d.tighten(m, l.At.Add(-logLate), time.Time{}, ev)
			return ms
		}
	}
	return append(ms, Milestone{Kind: kind, Container: spec.Name, Attempt: a, At: l.At,
		Earliest: l.At.Add(-logLate), Latest: l.At, Source: SourceLog, Message: l.Text, Evidence: []Evidence{ev}})
}

// tighten bounds m by [lo, hi] (zero: no bound) with the evidence for it, keeping its estimate
// inside; a bound that contradicts the others is dropped (clock skew) and noted.
func (d *deriver) tighten(m *Milestone, lo, hi time.Time, ev Evidence) {
	iv := d.bound(interval{m.Earliest, m.Latest}, lo, hi)
	if iv.lo.Equal(m.Earliest) && iv.hi.Equal(m.Latest) {
		return
	}
	m.Earliest, m.Latest = iv.lo, iv.hi
	m.At = iv.clamp(m.At)
	m.Evidence = append(m.Evidence[:len(m.Evidence):len(m.Evidence)], ev)
}

// kubeletSigterm is the SIGTERM of a run the kubelet's own log says it stopped: the runtime sent
// it right after.
func kubeletSigterm(spec ContainerObservation, a int32, k *KubeletObservation) Milestone {
	return Milestone{Kind: MSigterm, Container: spec.Name, Attempt: a, At: k.At, Earliest: k.At,
		Latest: k.At.Add(kubeletSignalLate), Source: SourceKubelet,
		Message: "the kubelet stopped it, grace period " + (time.Duration(k.GracePeriod) * time.Second).String(),
		Evidence: []Evidence{{What: "kubelet log: Killing container with a grace period", At: k.At,
			Note: "the kubelet has the runtime send SIGTERM right after it logs this"}}}
}

// runLog is a run's log as the snapshot shows it.
func runLog(lr *logRun) *RunLog {
	if lr == nil || lr.lines == 0 {
		return nil
	}
	out := &RunLog{Last: lr.last, Lines: lr.lines, PerSecond: lr.perSecond.view()}
	if lr.fromStart {
		out.First = lr.first
	}
	return out
}
