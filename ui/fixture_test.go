package ui

import (
	"sort"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// t0 is the creation time of the fixture's job.
var t0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

// at is t0 plus s seconds.
func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

func i32(v int32) *int32 { return &v }

// ms builds a milestone at s seconds after t0, certain to ±plus seconds.
func ms(kind timeline.MilestoneKind, container string, attempt int32, s, plus float64, src timeline.Source) timeline.Milestone {
	d := time.Duration(plus * float64(time.Second))
	return timeline.Milestone{Kind: kind, Container: container, Attempt: attempt, At: at(s),
		Earliest: at(s).Add(-d), Latest: at(s).Add(d), Source: src}
}

// with sets fields on a milestone.
func with(m timeline.Milestone, f func(*timeline.Milestone)) timeline.Milestone { f(&m); return m }

func seg(state timeline.LaneState, reason string, from, to float64) timeline.Segment {
	s := timeline.Segment{State: state, Reason: reason, From: at(from)}
	if to >= 0 {
		s.To = at(to)
	}
	return s
}

// fixtureLane makes a container's lane as the builder would: its milestones in runs by attempt, each
// with its offset from the pod's creation, and its segments as the first run's state changes.
func fixtureLane(c timeline.Container, created time.Time, milestones []timeline.Milestone, segs []timeline.Segment) timeline.Container {
	byAttempt := map[int32][]timeline.Milestone{}
	var attempts []int32
	for _, m := range milestones {
		m.Offset = offset(created, m)
		if _, ok := byAttempt[m.Attempt]; !ok {
			attempts = append(attempts, m.Attempt)
		}
		byAttempt[m.Attempt] = append(byAttempt[m.Attempt], m)
	}
	sort.Slice(attempts, func(i, j int) bool { return attempts[i] < attempts[j] })
	if len(attempts) == 0 {
		attempts = []int32{0}
	}
	var runs []*timeline.Run
	for _, a := range attempts {
		ms := byAttempt[a]
		sort.SliceStable(ms, func(i, j int) bool { return timeline.Before(&ms[i], &ms[j]) })
		runs = append(runs, &timeline.Run{Attempt: a, Milestones: ms})
	}
	for _, s := range segs {
		runs[0].Changes = append(runs[0].Changes, timeline.StateChange{At: s.From, State: s.State, Reason: s.Reason})
	}
	c.Runs = timeline.SeqOf(runs...)
	return c
}

func offset(created time.Time, m timeline.Milestone) timeline.Span {
	return timeline.Span{Value: m.At.Sub(created), Min: m.Earliest.Sub(created), Max: m.Latest.Sub(created)}
}

// podRow sets the pod row's offsets from the pod's creation.
func podRow(created time.Time, ms ...timeline.Milestone) timeline.Seq[timeline.Milestone] {
	for i := range ms {
		ms[i].Offset = offset(created, ms[i])
	}
	return timeline.SeqOf(ms...)
}

func span(v, plus float64) timeline.Span {
	d := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	return timeline.Span{Value: d(v), Min: d(v - plus), Max: d(v + plus)}
}

const (
	src  = timeline.SourceStatus
	evt  = timeline.SourceEvent
	obs  = timeline.SourceObserved
	infr = timeline.SourceInferred
)

// jobPod is a Job's pod with an init container, a sidecar with a startup probe that failed its
// liveness probe and restarted three times, and an app; everything has exited.
func jobPod() *timeline.Pod {
	created := at(0.1)
	p := timeline.Pod{
		Namespace: "sc-b", Name: "sc-b1-x7k2p", UID: "uid-x7k2p", Node: "kind-worker",
		Owner: &timeline.OwnerRef{Kind: "Job", Name: "sc-b1"}, Created: created, Phase: "Succeeded", Status: "Completed",
		LastSeen: at(36.0),
		Statuses: []timeline.StatusChange{
			{At: at(0.15), Status: "Pending", Phase: "Pending"},
			{At: at(0.9), Status: "Init:0/2", Phase: "Pending"},
			{At: at(3.4), Status: "Init:1/2", Phase: "Pending"},
			{At: at(4.9), Status: "Running", Phase: "Running"},
			{At: at(35.7), Status: "Completed", Phase: "Succeeded"},
		},
		Milestones: podRow(created,
			ms(timeline.MCreated, "", 0, 0.1, 0, src),
			with(ms(timeline.MScheduled, "", 0, 0.12, 0, evt), func(m *timeline.Milestone) {
				m.Message = "Successfully assigned sc-b/sc-b1-x7k2p to kind-worker"
			}),
			ms(timeline.MInitialized, "", 0, 4.5, 0.5, src),
			ms(timeline.MReady, "", 0, 6.1, 0.5, src),
			with(ms(timeline.MNotReady, "", 0, 12.6, 0.5, src), func(m *timeline.Milestone) { m.Reason = "ContainersNotReady" }),
			ms(timeline.MReady, "", 0, 30.1, 0.5, src),
			with(ms(timeline.MPhase, "", 0, 35.7, 0.2, obs), func(m *timeline.Milestone) { m.Reason = "Succeeded" }),
		),
		Containers: []timeline.Container{
			fixtureLane(timeline.Container{Name: "init-sleep", Kind: timeline.KindInit, State: "terminated: Completed (exit 0)"}, created,
				[]timeline.Milestone{
					ms(timeline.MCreated, "init-sleep", 0, 0.85, 0, evt),
					ms(timeline.MStart, "init-sleep", 0, 0.9, 0, evt),
					with(ms(timeline.MExit, "init-sleep", 0, 3.1, 0.5, src), func(m *timeline.Milestone) {
						m.Reason, m.ExitCode = "Completed", i32(0)
					}),
				},
				[]timeline.Segment{
					seg(timeline.StateWaiting, "PodInitializing", 0.15, 0.9),
					seg(timeline.StateRunning, "", 0.9, 3.1),
					seg(timeline.StateTerminated, "Completed", 3.1, -1),
				}),
			fixtureLane(timeline.Container{Name: "sidecar", Kind: timeline.KindSidecar, RestartCount: 3, State: "terminated: Error (exit 143)"}, created,
				[]timeline.Milestone{
					ms(timeline.MStart, "sidecar", 0, 3.4, 0, evt),
					ms(timeline.MStarted, "sidecar", 0, 4.6, 0.3, obs),
					ms(timeline.MReady, "sidecar", 0, 5.1, 0.5, src),
					with(ms(timeline.MProbeFailed, "sidecar", 0, 12.0, 0, evt), func(m *timeline.Milestone) {
						m.Reason, m.Count = "Unhealthy", 3
					}),
					with(ms(timeline.MExit, "sidecar", 0, 12.5, 0.5, src), func(m *timeline.Milestone) {
						m.Reason, m.ExitCode, m.Signal = "Error", i32(137), "SIGKILL"
					}),
					with(ms(timeline.MRestart, "sidecar", 1, 13.0, 0.5, src), func(m *timeline.Milestone) {}),
					with(ms(timeline.MExit, "sidecar", 1, 19.1, 0.5, src), func(m *timeline.Milestone) {
						m.Reason, m.ExitCode, m.Signal, m.Attempt = "Error", i32(137), "SIGKILL", 1
					}),
					with(ms(timeline.MBackOff, "sidecar", 1, 19.2, 0, evt), func(m *timeline.Milestone) {
						m.Reason, m.Count = "BackOff", 2
					}),
					ms(timeline.MRestart, "sidecar", 2, 19.8, 0.5, src),
					with(ms(timeline.MExit, "sidecar", 2, 28.6, 0.5, src), func(m *timeline.Milestone) {
						m.Reason, m.ExitCode, m.Signal = "Error", i32(137), "SIGKILL"
					}),
					ms(timeline.MRestart, "sidecar", 3, 29.4, 0.5, src),
					ms(timeline.MReady, "sidecar", 3, 30.0, 0.5, src),
					ms(timeline.MSigterm, "sidecar", 3, 35.05, 0.5, infr),
					with(ms(timeline.MExit, "sidecar", 3, 35.3, 0.5, src), func(m *timeline.Milestone) {
						m.Reason, m.ExitCode, m.Signal = "Error", i32(143), "SIGTERM"
					}),
				},
				[]timeline.Segment{
					seg(timeline.StatePending, "", 0.15, 3.35),
					seg(timeline.StateRunning, "", 3.4, 4.6),
					seg(timeline.StateStarted, "", 4.6, 5.1),
					seg(timeline.StateReady, "", 5.1, 12.0),
					seg(timeline.StateRunning, "", 12.0, 12.5),
					seg(timeline.StateTerminated, "Error", 12.5, 13.0),
					seg(timeline.StateRunning, "", 13.0, 19.1),
					seg(timeline.StateWaiting, "CrashLoopBackOff", 19.1, 19.8),
					seg(timeline.StateRunning, "", 19.8, 28.6),
					seg(timeline.StateWaiting, "CrashLoopBackOff", 28.6, 29.4),
					seg(timeline.StateRunning, "", 29.4, 30.0),
					seg(timeline.StateReady, "", 30.0, 35.05),
					seg(timeline.StateTerminating, "", 35.05, 35.3),
					seg(timeline.StateTerminated, "Error", 35.3, -1),
				}),
			fixtureLane(timeline.Container{Name: "app", Kind: timeline.KindApp, State: "terminated: Completed (exit 0)"}, created,
				[]timeline.Milestone{
					ms(timeline.MStart, "app", 0, 4.7, 0, evt),
					ms(timeline.MReady, "app", 0, 6.0, 0.5, src),
					with(ms(timeline.MExit, "app", 0, 35.0, 0.5, src), func(m *timeline.Milestone) {
						m.Reason, m.ExitCode = "Completed", i32(0)
					}),
				},
				[]timeline.Segment{
					seg(timeline.StatePending, "", 0.15, 4.65),
					seg(timeline.StateRunning, "", 4.7, 6.0),
					seg(timeline.StateReady, "", 6.0, 35.0),
					seg(timeline.StateTerminated, "Completed", 35.0, -1),
				}),
		},
		Gaps: []timeline.Gap{
			{Name: "init-sleep exit → sidecar start", Span: span(0.3, 0.5)},
			{Name: "sidecar started → app start", Span: span(0.1, 0.3)},
			{Name: "created → ready", Span: span(6.0, 0.5)},
			{Name: "app exit → sidecar SIGTERM", Span: span(0.05, 0.71)},
			{Name: "sidecar SIGTERM → exit", Span: span(0.25, 0.71)},
		},
	}
	return p.WithFindings([]timeline.Finding{
		{Severity: timeline.SeverityWarning, Pod: p.Name, Container: "sidecar", Text: "sidecar restarted 3 times after failed liveness probes; the pod was not ready meanwhile"},
		{Severity: timeline.SeverityInfo, Pod: p.Name, Container: "sidecar", Text: "the sidecar's SIGTERM is inferred: the kubelet stops sidecars after the last app container exits"},
	})
}

// runningPod is a standalone pod, started later, whose app is not ready yet.
func runningPod() *timeline.Pod {
	created := at(36.5)
	p := timeline.Pod{
		Namespace: "sc-b", Name: "sc-a", UID: "uid-sc-a", Node: "kind-worker2",
		Created: created, Phase: "Running", Status: "Running", LastSeen: at(41.5),
		Statuses: []timeline.StatusChange{
			{At: at(36.55), Status: "Pending", Phase: "Pending"},
			{At: at(37.0), Status: "Init:0/2", Phase: "Pending"},
			{At: at(39.6), Status: "Init:1/2", Phase: "Pending"},
			{At: at(41.0), Status: "Running", Phase: "Running"},
		},
		Milestones: podRow(created,
			ms(timeline.MCreated, "", 0, 36.5, 0, src),
			ms(timeline.MScheduled, "", 0, 36.52, 0, evt),
			ms(timeline.MInitialized, "", 0, 40.9, 0.5, src),
		),
		Containers: []timeline.Container{
			fixtureLane(timeline.Container{Name: "init-sleep", Kind: timeline.KindInit, State: "terminated: Completed (exit 0)"}, created,
				[]timeline.Milestone{
					ms(timeline.MStart, "init-sleep", 0, 37.4, 0, evt),
					with(ms(timeline.MExit, "init-sleep", 0, 39.5, 0.5, src), func(m *timeline.Milestone) { m.Reason, m.ExitCode = "Completed", i32(0) }),
				},
				[]timeline.Segment{
					seg(timeline.StateWaiting, "PodInitializing", 36.55, 37.4),
					seg(timeline.StateRunning, "", 37.4, 39.5),
					seg(timeline.StateTerminated, "Completed", 39.5, -1),
				}),
			fixtureLane(timeline.Container{Name: "sidecar", Kind: timeline.KindSidecar, State: "running, ready"}, created,
				[]timeline.Milestone{
					ms(timeline.MStart, "sidecar", 0, 39.8, 0, evt),
					ms(timeline.MStarted, "sidecar", 0, 40.9, 0.3, obs),
					ms(timeline.MReady, "sidecar", 0, 41.2, 0.5, src),
				},
				[]timeline.Segment{
					seg(timeline.StatePending, "", 36.55, 39.8),
					seg(timeline.StateRunning, "", 39.8, 40.9),
					seg(timeline.StateStarted, "", 40.9, 41.2),
					seg(timeline.StateReady, "", 41.2, -1),
				}),
			fixtureLane(timeline.Container{Name: "app", Kind: timeline.KindApp, State: "running, not ready"}, created,
				[]timeline.Milestone{ms(timeline.MStart, "app", 0, 41.0, 0, evt)},
				[]timeline.Segment{
					seg(timeline.StatePending, "", 36.55, 41.0),
					seg(timeline.StateRunning, "", 41.0, -1),
				}),
		},
	}
	return p.WithFindings(nil)
}

// fixtureJob is the Job that owns jobPod, complete.
func fixtureJob() *timeline.Job {
	j := timeline.Job{Namespace: "sc-b", Name: "sc-b1", UID: "uid-job", Created: at(0), Status: "Complete",
		Succeeded: 1,
		Milestones: []timeline.Milestone{
			ms(timeline.MCreated, "", 0, 0, 0, src),
			with(ms(timeline.MCondition, "", 0, 35.8, 0.5, src), func(m *timeline.Milestone) { m.Reason = "SuccessCriteriaMet" }),
			with(ms(timeline.MCondition, "", 0, 35.9, 0.5, src), func(m *timeline.Milestone) { m.Reason = "Complete" }),
		}}
	for i := range j.Milestones {
		m := &j.Milestones[i]
		m.Offset = timeline.Span{Value: m.At.Sub(j.Created), Min: m.Earliest.Sub(j.Created), Max: m.Latest.Sub(j.Created)}
	}
	return &j
}

func ev(s float64, object, container, typ, reason, msg string, count int32) timeline.Event {
	return timeline.Event{At: at(s), Object: object, Container: container, Type: typ, Reason: reason, Message: msg, Count: count}
}

// fixture is a snapshot with the job's pod, a later standalone pod, the job and their Events.
func fixture() timeline.Snapshot {
	jp, rp, j := jobPod(), runningPod(), fixtureJob()
	for _, e := range []timeline.Event{
		ev(0.05, "Job/sc-b1", "", "Normal", "SuccessfulCreate", "Created pod: sc-b1-x7k2p", 1),
		ev(0.12, "Pod/sc-b1-x7k2p", "", "Normal", "Scheduled", "Successfully assigned sc-b/sc-b1-x7k2p to kind-worker", 1),
		ev(0.8, "Pod/sc-b1-x7k2p", "init-sleep", "Normal", "Pulled", `Container image "busybox:1.36" already present on machine`, 1),
		ev(0.9, "Pod/sc-b1-x7k2p", "init-sleep", "Normal", "Started", "Started container init-sleep", 1),
		ev(3.4, "Pod/sc-b1-x7k2p", "sidecar", "Normal", "Started", "Started container sidecar", 1),
		ev(4.7, "Pod/sc-b1-x7k2p", "app", "Normal", "Started", "Started container app", 1),
		ev(12.0, "Pod/sc-b1-x7k2p", "sidecar", "Warning", "Unhealthy", "Liveness probe failed: HTTP probe failed with statuscode: 500", 3),
		ev(12.3, "Pod/sc-b1-x7k2p", "sidecar", "Normal", "Killing", "Container sidecar failed liveness probe, will be restarted", 1),
		ev(19.2, "Pod/sc-b1-x7k2p", "sidecar", "Warning", "BackOff", "Back-off restarting failed container sidecar in pod sc-b1-x7k2p_sc-b(uid-x7k2p)", 2),
		ev(35.9, "Job/sc-b1", "", "Normal", "Completed", "Job completed", 1),
		ev(37.4, "Pod/sc-a", "init-sleep", "Normal", "Started", "Started container init-sleep", 1),
		ev(39.8, "Pod/sc-a", "sidecar", "Normal", "Started", "Started container sidecar", 1),
		ev(41.0, "Pod/sc-a", "app", "Normal", "Started", "Started container app", 1),
	} {
		switch e.Object {
		case "Job/" + j.Name:
			j.Events = timeline.SeqOf(append(j.Events.Slice(), e)...)
		case "Pod/" + jp.Name:
			jp.Events = timeline.SeqOf(append(jp.Events.Slice(), e)...)
		case "Pod/" + rp.Name:
			rp.Events = timeline.SeqOf(append(rp.Events.Slice(), e)...)
		}
	}
	return timeline.Snapshot{Pods: timeline.SeqOf(jp, rp), Jobs: []*timeline.Job{j}}
}

// withPod is s with its pod i replaced by p.
func withPod(s timeline.Snapshot, i int, p *timeline.Pod) timeline.Snapshot {
	pods := s.Pods.Slice()
	pods[i] = p
	s.Pods = timeline.SeqOf(pods...)
	return s
}
