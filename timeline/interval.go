package timeline

import "time"

// second is the precision of most API times: metav1.Time is serialised in whole seconds, truncated.
const second = time.Second

// signalAllowance bounds how long after the kubelet's Killing Event the container runtime
// delivers SIGTERM when no preStop hook runs first: the kubelet records the Event and then calls
// StopContainer at once. Measured here in tens of milliseconds; one second is a safe bound.
const signalAllowance = time.Second

// turnAllowance bounds how long after the last container a sidecar waits for has exited the
// kubelet signals the sidecar: it learns of the exit only at its next relist of the runtime's
// containers (every second, each taking its time), and signals in the sync of the pod that
// follows. Seen here 1.3 s past the exit's latest whole second with the node under load (the
// end-to-end suite, 8 scenarios at once on 2 cores); two seconds is the bound.
const turnAllowance = 2 * time.Second

// startedLate bounds how long after a container's process began containerd records its
// startedAt: the process can print its first line before. Measured here up to tens of
// milliseconds under load; 100 ms is a safe bound.
const startedLate = 100 * time.Millisecond

// statusLag bounds how late the kubelet's status can show a change of a container's started or
// ready flag: its prober's result reaches the status in the kubelet's next sync of the pod, so
// an observation up to this long after the change can still show the flag as it was. Seen here
// up to ~0.8 s with 8 pods starting at once on 2 cores.
const statusLag = time.Second

// interval is a closed time interval [lo, hi] in which something certainly happened. A zero lo
// or hi means unbounded on that side.
type interval struct{ lo, hi time.Time }

// wholeSecond is the interval a whole-second API time t stands for: [t, t+1s).
func wholeSecond(t time.Time) interval { return interval{t, t.Add(second - time.Nanosecond)} }

// point is the interval of an exact time.
func point(t time.Time) interval { return interval{t, t} }

// notAfter bounds i above by t; notBefore bounds it below.
func (i interval) notAfter(t time.Time) interval {
	if !t.IsZero() && (i.hi.IsZero() || t.Before(i.hi)) {
		i.hi = t
	}
	return i
}

func (i interval) notBefore(t time.Time) interval {
	if !t.IsZero() && (i.lo.IsZero() || t.After(i.lo)) {
		i.lo = t
	}
	return i
}

// empty reports whether the bounds contradict each other, which happens only when two clocks
// (the server's and this machine's) disagree.
func (i interval) empty() bool { return !i.lo.IsZero() && !i.hi.IsZero() && i.hi.Before(i.lo) }

// tighten applies a bound only if it leaves the interval non-empty, and reports whether it did;
// a bound that would empty it is evidence of clock skew and is dropped.
func (i interval) tighten(lo, hi time.Time) (interval, bool) {
	j := i.notBefore(lo).notAfter(hi)
	if j.empty() {
		return i, false
	}
	return j, true
}

// mid is the middle of a bounded interval (or its one bound).
func (i interval) mid() time.Time {
	switch {
	case i.lo.IsZero():
		return i.hi
	case i.hi.IsZero():
		return i.lo
	}
	return i.lo.Add(sub(i.hi, i.lo) / 2)
}

// clamp moves t into the interval.
func (i interval) clamp(t time.Time) time.Time {
	if !i.lo.IsZero() && t.Before(i.lo) {
		return i.lo
	}
	if !i.hi.IsZero() && t.After(i.hi) {
		return i.hi
	}
	return t
}

// spanBetween is the time from milestone a to milestone b: its estimate from the two At, and
// the bounds from the two intervals. With ordered set, b is known to follow a (a kubelet rule),
// so negative values are cut to zero.
func spanBetween(a, b *Milestone, ordered bool) Span {
	s := Span{Value: sub(b.At, a.At), Min: between(b.Earliest, a.Latest, NoMin), Max: between(b.Latest, a.Earliest, NoMax)}
	if ordered && s.Max >= 0 {
		// Cut at zero, unless the bounds say otherwise: then the data contradicts the order.
		s.Value, s.Min = max(s.Value, 0), max(s.Min, 0)
	}
	return s
}

// offsetFrom is a milestone's offset from a reference time (the pod's creation).
func offsetFrom(origin time.Time, m *Milestone) Span {
	return Span{Value: sub(m.At, origin), Min: between(m.Earliest, origin, NoMin), Max: between(m.Latest, origin, NoMax)}
}

// between is t - u where both are known bounds, else none (NoMin or NoMax, as the side asks):
// sub of a zero time saturated to either end, a lower bound of +292 years among them.
func between(t, u time.Time, none time.Duration) time.Duration {
	if t.IsZero() || u.IsZero() {
		return none
	}
	return sub(t, u)
}

// maxSubSeconds bounds the spans sub works out itself: well within a Duration's 292 years.
const maxSubSeconds = 1 << 33

// sub is t.Sub(u), to the nanosecond, without the check for overflow that Sub makes with an Add
// and an Equal (an eighth of deriving a run): a span under 272 years cannot overflow. Sub works
// out the others (one of them zero, say: unbounded), and two times that both carry a monotonic
// clock reading (two receive times), which it subtracts.
func sub(t, u time.Time) time.Duration {
	s := t.Unix() - u.Unix()
	if s <= -maxSubSeconds || s >= maxSubSeconds || t != t.Round(0) && u != u.Round(0) {
		return t.Sub(u)
	}
	return time.Duration(s)*time.Second + time.Duration(t.Nanosecond()-u.Nanosecond())
}

// absurd reports whether a time of something in a pod lies before the pod was made (by more
// than the API's second), which no true time of it can.
func absurd(t, created time.Time) bool {
	return !t.IsZero() && !created.IsZero() && t.Add(second).Before(created)
}
