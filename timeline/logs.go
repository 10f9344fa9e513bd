package timeline

import (
	"strconv"
	"time"
)

// What a log line says about a run, and how far it may be from what it says, rests on what the
// container runtime does. The milestones a line bounds are the runtime's own records, which the
// API reports: a run's start is when containerd recorded it (StartedAt, which the API's
// startedAt truncates to the second), its exit when containerd's shim reaped the process
// (FinishedAt). The distances below were measured on the e2e cluster (containerd 1.6, two cores,
// eight scenarios at once, each container best-effort): e2e/truth prints them, against
// containerd's own nanosecond stamps and the kubelet's log, and README's time model reports them.
//
//   - The runtime stamps a line when it reads it from the container's pipe, as lines come: at
//     most logLate after the container wrote it. A line written as the last act before exiting
//     was never stamped more than 11 ms after the runtime recorded the exit.
//   - It records a start once its start call has returned, by when the process may already have
//     written lines: containerd's StartedAt came up to 137 ms after the first line's stamp
//     (median 2 ms) on a quiet node, 418 ms with eight scenarios at once, and 663 ms with the
//     load at 14 (2026-12-03). How late grows with the node's load, so a line does not bound the
//     start the API reports: a line marked start only places it (its estimate).
//     A process may also print its first line long after it started (up to 254 ms here, a shell
//     on a busy node; seconds for a slow app): the first line says nothing of how early it began.
//   - It records an exit when the shim reaps the process: up to 401 ms after the line a process
//     printed as its very last act (median 4 ms). A line marked exit places the exit there, but
//     bounds it above no better than the API does.
//   - The kubelet logs that it stops a container, then asks the runtime to, which sends SIGTERM:
//     the line a SIGTERM trap printed came 6 to 156 ms after the kubelet's (median 14 ms), and
//     with twelve containers stopped at once a process that SIGTERM killed outright was reaped
//     up to 193 ms after it. kubeletSignalLate bounds the signal after the kubelet's line, and
//     sigtermCaughtLate the trap's line after the signal: each is at most that 156 ms.

// logLate bounds how long after a container wrote a line the runtime stamped it.
const logLate = 100 * time.Millisecond

// kubeletSignalLate bounds how long after the kubelet logged that it stops a container the
// runtime sends the SIGTERM: the kubelet asks the runtime right after it logs it, and the
// runtime has its shim run runc, which sends it.
const kubeletSignalLate = 250 * time.Millisecond

// sigtermCaughtLate bounds how long after the SIGTERM a line marked sigterm was stamped: the
// container's trap prints it when the signal comes, as soon as the node lets it run.
const sigtermCaughtLate = 250 * time.Millisecond

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

// applyLog adds a log's lines to their lane, if the lane has been seen.
func (b *Builder) applyLog(r time.Time, o *LogObservation) bool {
	ps, ls := b.lane(o.Namespace, o.Pod, o.PodUID, o.Container)
	if ls == nil {
		return false
	}
	if !ls.addLog(r, o, ps.created()) {
		ps.odd |= oddLogTime
	}
	return true
}

// applyKubelet adds what the kubelet's log says of a container's stop, if its lane has been seen.
func (b *Builder) applyKubelet(r time.Time, o *KubeletObservation) bool {
	ps, ls := b.lane(o.Namespace, o.Pod, o.PodUID, o.Container)
	if ls == nil {
		return false
	}
	if outOfLife(o.At, ps.created(), r) {
		ps.odd |= oddLogTime
	} else {
		ls.addKubelet(o)
	}
	return true
}

// addLog files what a run's log said and marks the run for derivation again. A line stamped
// with no time of the pod (see outOfLife; created is the pod's creation) is left out: ok is
// false when one was.
func (ls *laneState) addLog(r time.Time, o *LogObservation, created time.Time) (ok bool) {
	if ls.logs == nil {
		ls.logs = map[string]*logRun{}
	}
	key := logKey(o.ContainerID, o.Attempt)
	lr := ls.logs[key]
	if lr == nil {
		lr = &logRun{fromStart: o.FromStart}
		ls.logs[key] = lr
	}
	ok = true
	for _, l := range o.Lines {
		if l.At.IsZero() || outOfLife(l.At, created, r) {
			ok = false
			continue
		}
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
	return ok
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

// logEvidence tightens a run's milestones with its log: the runtime recorded the run's exit
// after its last line (less logLate); its log ended after it exited. Its start it recorded an
// unbounded time after the first line on a loaded node, so the first line does not bound it.
// Marked lines refine the milestone they are named after, or become milestones of their own.
func (d *deriver) logEvidence(spec ContainerObservation, a int32, ms []Milestone, lr *logRun) []Milestone {
	if lr == nil || lr.lines == 0 {
		return ms
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

// markMilestone applies one marked line: to the built-in milestone it is named after, or as a
// milestone of the app's own. A mark named after a built-in milestone says the container
// printed the line at that step: at its start, in its SIGTERM trap, as its last act before
// exiting, or once ready. The line bounds the milestone as far as the runtime's behaviour
// allows (see the top of this file), and places its estimate where the line says, but for ready,
// which the kubelet sees only at its next probe:
//
//	start   not bounded (the runtime may record it long after)     estimate: the line
//	sigterm line − sigtermCaughtLate ≤ SIGTERM ≤ line             estimate: the line
//	exit    line − logLate ≤ exit (the runtime's, see above)      estimate: the line
//	ready   line − logLate ≤ ready
func (d *deriver) markMilestone(spec ContainerObservation, a int32, ms []Milestone, l LogLine) []Milestone {
	ev := Evidence{What: "log line marked " + l.Mark, At: l.At, Note: l.Text}
	kind := MilestoneKind(l.Mark)
	if kind == MStart {
		kind = startKind(a)
	}
	if m := findMilestone(ms, kind, a); m != nil {
		switch kind {
		case MStart, MRestart:
			d.place(m, l.At, ev) // not a bound: the runtime may record the start long after
			return ms
		case MSigterm:
			d.tighten(m, l.At.Add(-sigtermCaughtLate), l.At, ev)
			d.place(m, l.At, ev)
			return ms
		case MExit:
			d.tighten(m, l.At.Add(-logLate), time.Time{}, ev)
			d.place(m, l.At, ev)
			return ms
		case MReady:
			d.tighten(m, l.At.Add(-logLate), time.Time{}, ev)
			return ms
		}
	}
	return append(ms, Milestone{Kind: kind, Container: spec.Name, Attempt: a, At: l.At,
		Earliest: l.At.Add(-logLate), Latest: l.At, Source: SourceLog, Message: l.Text, Evidence: []Evidence{ev}})
}

// place moves m's estimate to at (kept inside its bounds): the line the container printed at
// that step is the best evidence of when it happened. Its evidence is added if tighten did not.
func (d *deriver) place(m *Milestone, at time.Time, ev Evidence) {
	m.At = interval{m.Earliest, m.Latest}.clamp(at)
	if n := len(m.Evidence); n == 0 || m.Evidence[n-1] != ev {
		m.Evidence = append(m.Evidence[:n:n], ev)
	}
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
		Message: "the kubelet stopped it, grace period " + seconds(k.GracePeriod).String(),
		Evidence: []Evidence{{What: "kubelet log: Killing container with a grace period", At: k.At,
			Note: "the kubelet has the runtime send SIGTERM right after it logs this (up to 250 ms later on a busy node)"}}}
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
