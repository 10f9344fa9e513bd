package ui

import (
	"fmt"
	"sort"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// synthPod describes a synthetic pod whose app containers crash-loop: each run lasts runFor,
// then the container waits backOff in CrashLoopBackOff before it runs again.
type synthPod struct {
	namespace, name, uid string
	owner                string // a Job's name, or empty
	created              time.Time
	containers           int
	restarts             int
	runFor, backOff      time.Duration
}

func boolp(b bool) *bool { return &b }

// observations are the watch events of the pod as a watch would deliver them: the pod at every
// change of any container, and each container's BackOff and Started Events with growing counts.
func (sp synthPod) observations() []timeline.Observation {
	period := sp.runFor + sp.backOff
	type change struct {
		at        time.Time
		container int
		run       int
		running   bool
	}
	var changes []change
	for c := range sp.containers {
		skew := time.Duration(c) * 137 * time.Millisecond
		for r := 0; r <= sp.restarts; r++ {
			start := sp.created.Add(time.Second + skew + time.Duration(r)*period)
			changes = append(changes, change{start, c, r, true})
			if r < sp.restarts {
				changes = append(changes, change{start.Add(sp.runFor), c, r, false})
			}
		}
	}
	sort.SliceStable(changes, func(i, j int) bool { return changes[i].at.Before(changes[j].at) })

	names := make([]string, sp.containers)
	for c := range names {
		names[c] = fmt.Sprintf("app-%02d", c)
	}
	state := make([]*timeline.ContainerStatus, sp.containers)
	ownerKind := ""
	if sp.owner != "" {
		ownerKind = "Job"
	}
	podAt := func(at time.Time, phase string) timeline.Observation {
		po := &timeline.PodObservation{UID: sp.uid, Namespace: sp.namespace, Name: sp.name, Node: "node-1",
			OwnerKind: ownerKind, OwnerName: sp.owner, OwnerUID: "uid-job-" + sp.owner,
			ResourceVersion: at.Format(time.RFC3339Nano), Created: sp.created, GracePeriod: 30, RestartPolicy: "Always",
			Phase: phase, Status: "Running"}
		for c := range sp.containers {
			co := timeline.ContainerObservation{Name: names[c], Kind: timeline.KindApp, Status: state[c]}
			po.Containers = append(po.Containers, co)
		}
		return timeline.Observation{Received: at, Type: timeline.Modified, Pod: po}
	}
	first := podAt(sp.created.Add(100*time.Millisecond), "Pending")
	first.Type = timeline.Added
	out := []timeline.Observation{first}
	event := func(at time.Time, c int, reason, typ, msg string, count int32, firstAt time.Time) timeline.Observation {
		return timeline.Observation{Received: at.Add(20 * time.Millisecond), Type: timeline.Modified, Event: &timeline.EventObservation{
			UID: fmt.Sprintf("ev-%s-%s-%d", sp.uid, reason, c), Namespace: sp.namespace, Name: sp.name + "." + reason,
			InvolvedKind: "Pod", InvolvedName: sp.name, InvolvedUID: sp.uid, Container: names[c],
			FieldPath: "spec.containers{" + names[c] + "}", ContainerKind: timeline.KindApp, Type: typ,
			Reason: reason, Message: msg, Source: "kubelet", Count: count,
			First: firstAt.Truncate(time.Second), Last: at.Truncate(time.Second)}}
	}
	firstStart := make([]time.Time, sp.containers)
	firstBackOff := make([]time.Time, sp.containers)
	for _, ch := range changes {
		id := fmt.Sprintf("containerd://%s-%d", names[ch.container], ch.run)
		startedAt := ch.at.Truncate(time.Second)
		if ch.running {
			cs := &timeline.ContainerStatus{ContainerID: id, RestartCount: int32(ch.run), Ready: true, Started: boolp(true),
				Running: &timeline.Running{ContainerID: id, StartedAt: startedAt}}
			if prev := state[ch.container]; prev != nil {
				cs.LastTerminated = prev.LastTerminated
			}
			state[ch.container] = cs
			if firstStart[ch.container].IsZero() {
				firstStart[ch.container] = ch.at
			}
			out = append(out, podAt(ch.at.Add(300*time.Millisecond), "Running"))
			out = append(out, event(ch.at, ch.container, "Started", "Normal", "Started container "+names[ch.container],
				int32(ch.run+1), firstStart[ch.container]))
			continue
		}
		prev := state[ch.container]
		term := &timeline.Terminated{ContainerID: id, ExitCode: 1, Reason: "Error",
			StartedAt: prev.Running.StartedAt, FinishedAt: ch.at.Truncate(time.Second)}
		state[ch.container] = &timeline.ContainerStatus{ContainerID: id, RestartCount: int32(ch.run), Started: boolp(false),
			Waiting:        &timeline.Waiting{Reason: "CrashLoopBackOff", Message: "back-off restarting failed container"},
			LastTerminated: term}
		out = append(out, podAt(ch.at.Add(400*time.Millisecond), "Running"))
		if firstBackOff[ch.container].IsZero() {
			firstBackOff[ch.container] = ch.at
		}
		out = append(out, event(ch.at.Add(time.Second), ch.container, "BackOff", "Warning",
			"Back-off restarting failed container "+names[ch.container], int32(ch.run+1), firstBackOff[ch.container]))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Received.Before(out[j].Received) })
	return out
}

// build applies observations to a new builder and returns its snapshot.
func build(obs []timeline.Observation) (*timeline.Builder, timeline.Snapshot) {
	b := timeline.NewBuilder()
	for _, o := range obs {
		b.Apply(o)
	}
	return b, b.Snapshot()
}

// largePod is one pod of 12 crash-looping containers with about 500 milestones each.
func largePod() timeline.Snapshot {
	sp := synthPod{namespace: "big", name: "crashy", uid: "uid-crashy", created: t0, containers: 12,
		restarts: 99, runFor: 20 * time.Second, backOff: 10 * time.Second}
	_, s := build(sp.observations())
	return s
}

// jobObservations are the observations of a Job of n pods, each with a sidecar-like app and a
// main container that restarts twice, and the Job itself.
func jobObservations(n int) []timeline.Observation {
	var out []timeline.Observation
	out = append(out, timeline.Observation{Received: t0, Type: timeline.Added, Job: &timeline.JobObservation{
		UID: "uid-job-batch", Namespace: "big", Name: "batch", ResourceVersion: "1", Created: t0, Active: int32(n)}})
	for i := range n {
		sp := synthPod{namespace: "big", name: fmt.Sprintf("batch-%04d", i), uid: fmt.Sprintf("uid-batch-%04d", i),
			owner: "batch", created: t0.Add(time.Duration(i) * 10 * time.Millisecond), containers: 2, restarts: 2,
			runFor: 5 * time.Second, backOff: 10 * time.Second}
		out = append(out, sp.observations()...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Received.Before(out[j].Received) })
	return out
}
