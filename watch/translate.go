package watch

import (
	"strconv"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Observe translates one watch item into the builder's observation. It is pure: the same item
// gives the same observation, live or replayed. ok is false for objects it does not know.
func Observe(it Item) (o timeline.Observation, ok bool) {
	o = timeline.Observation{Received: it.Time, Type: it.Type}
	switch obj := it.Object.(type) {
	case *corev1.Pod:
		o.Pod = observePod(obj)
	case *corev1.Event:
		o.Event = observeEvent(obj)
	case *eventsv1.Event:
		o.Event = observeEventsV1(obj)
	case *batchv1.Job:
		o.Job = observeJob(obj)
	case *ContainerLog:
		o.Log = obj.observation()
	case *KubeletLog:
		o.Kubelet = obj.observation()
	default:
		return o, false
	}
	return o, true
}

// Observations translates items in order, leaving out objects Observe does not know.
func Observations(items []Item) []timeline.Observation {
	out := make([]timeline.Observation, 0, len(items))
	for _, it := range items {
		if o, ok := Observe(it); ok {
			out = append(out, o)
		}
	}
	return out
}

func observePod(p *corev1.Pod) *timeline.PodObservation {
	o := new(timeline.PodObservation)
	FillPod(o, p, nil, nil)
	return o
}

// FillPod is Observe of a Pod into memory the caller owns: it writes p's observation into o, its
// conditions and containers into conds and ctrs (their storage used again: nil makes lists of
// their size). Translator uses it.
func FillPod(o *timeline.PodObservation, p *corev1.Pod, conds []timeline.Condition, ctrs []timeline.ContainerObservation) {
	*o = timeline.PodObservation{
		UID: string(p.UID), Namespace: p.Namespace, Name: p.Name, ResourceVersion: p.ResourceVersion,
		Node: p.Spec.NodeName, Created: p.CreationTimestamp.Time, Deletion: timePtr(p.DeletionTimestamp),
		DeletionGrace: p.DeletionGracePeriodSeconds, RestartPolicy: string(p.Spec.RestartPolicy),
		Phase: string(p.Status.Phase), Reason: p.Status.Reason, Status: podStatus(p),
	}
	if p.Spec.TerminationGracePeriodSeconds != nil {
		o.GracePeriod = *p.Spec.TerminationGracePeriodSeconds
	} else {
		o.GracePeriod = corev1.DefaultTerminationGracePeriodSeconds
	}
	for _, g := range p.Spec.ReadinessGates {
		o.ReadinessGates = append(o.ReadinessGates, string(g.ConditionType))
	}
	if ref := metav1.GetControllerOfNoCopy(p); ref != nil { // read only: no copy made
		o.OwnerKind, o.OwnerName, o.OwnerUID = ref.Kind, ref.Name, string(ref.UID)
	}
	if asksForResources(p) {
		o.Requests = resources(resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{}))
		o.Limits = resources(resourcehelper.PodLimits(p, resourcehelper.PodResourcesOptions{}))
	}
	// Sized once: a pod is translated on every update.
	if n := len(p.Status.Conditions); n > cap(conds) {
		o.Conditions = make([]timeline.Condition, 0, n)
	} else if n > 0 {
		o.Conditions = conds[:0]
	}
	for _, c := range p.Status.Conditions {
		o.Conditions = append(o.Conditions, timeline.Condition{Type: string(c.Type), Status: string(c.Status),
			Reason: c.Reason, Message: c.Message, LastTransition: c.LastTransitionTime.Time})
	}
	if n := len(p.Spec.InitContainers) + len(p.Spec.Containers) + len(p.Spec.EphemeralContainers); n > cap(ctrs) {
		o.Containers = make([]timeline.ContainerObservation, 0, n)
	} else if n > 0 {
		o.Containers = ctrs[:0]
	}
	initStatus, appStatus, ephStatus := newByName(p.Status.InitContainerStatuses, statusName),
		newByName(p.Status.ContainerStatuses, statusName), newByName(p.Status.EphemeralContainerStatuses, statusName)
	for i := range p.Spec.InitContainers {
		c := &p.Spec.InitContainers[i]
		kind := timeline.KindInit
		if isSidecar(c) {
			kind = timeline.KindSidecar
		}
		o.Containers = append(o.Containers, observeContainer(c, kind, initStatus.of(c.Name)))
	}
	for i := range p.Spec.Containers {
		c := &p.Spec.Containers[i]
		o.Containers = append(o.Containers, observeContainer(c, timeline.KindApp, appStatus.of(c.Name)))
	}
	for i := range p.Spec.EphemeralContainers {
		c := corev1.Container(p.Spec.EphemeralContainers[i].EphemeralContainerCommon)
		o.Containers = append(o.Containers, observeContainer(&c, timeline.KindEphemeral, ephStatus.of(c.Name)))
	}
}

// byName finds a pod's containers, or their statuses, by name (the last, should a name repeat):
// by a look through the list for the few containers most pods have, through a map made once for
// a pod with many, so that a pod's update costs what its containers do and makes no map.
type byName[T any] struct {
	list  []T
	name  func(*T) string
	index map[string]*T // for a pod with many
}

func newByName[T any](list []T, name func(*T) string) byName[T] {
	s := byName[T]{list: list, name: name}
	if len(list) > 16 {
		s.index = make(map[string]*T, len(list))
		for i := range list {
			s.index[name(&list[i])] = &list[i]
		}
	}
	return s
}

func (s byName[T]) of(name string) *T {
	if s.index != nil {
		return s.index[name]
	}
	for i := len(s.list) - 1; i >= 0; i-- {
		if s.name(&s.list[i]) == name {
			return &s.list[i]
		}
	}
	return nil
}

func statusName(c *corev1.ContainerStatus) string { return c.Name }
func containerName(c *corev1.Container) string    { return c.Name }

func observeContainer(c *corev1.Container, kind timeline.ContainerKind, cs *corev1.ContainerStatus) timeline.ContainerObservation {
	o := timeline.ContainerObservation{
		Name: c.Name, Kind: kind, HasStartupProbe: c.StartupProbe != nil, HasReadinessProbe: c.ReadinessProbe != nil,
		HasPreStop: c.Lifecycle != nil && c.Lifecycle.PreStop != nil, HasPostStart: c.Lifecycle != nil && c.Lifecycle.PostStart != nil,
		Startup: probeSpec(c.StartupProbe), Readiness: probeSpec(c.ReadinessProbe), Liveness: probeSpec(c.LivenessProbe),
	}
	if c.RestartPolicy != nil {
		o.RestartPolicy = string(*c.RestartPolicy)
	}
	if cs == nil {
		return o
	}
	s := &timeline.ContainerStatus{
		ContainerID: cs.ContainerID, RestartCount: cs.RestartCount, Ready: cs.Ready, Started: cs.Started,
		LastTerminated: terminated(cs.LastTerminationState.Terminated),
		Terminated:     terminated(cs.State.Terminated),
	}
	if w := cs.State.Waiting; w != nil {
		s.Waiting = &timeline.Waiting{Reason: w.Reason, Message: w.Message}
	}
	if r := cs.State.Running; r != nil {
		s.Running = &timeline.Running{ContainerID: cs.ContainerID, StartedAt: r.StartedAt.Time}
	}
	o.Status = s
	return o
}

// probeSpec is a probe's timing, with the API's defaults for what is unset (period 10 s,
// timeout 1 s, failure threshold 3).
func probeSpec(p *corev1.Probe) timeline.ProbeSpec {
	if p == nil {
		return timeline.ProbeSpec{}
	}
	s := timeline.ProbeSpec{InitialDelay: seconds(p.InitialDelaySeconds), Period: seconds(p.PeriodSeconds),
		Timeout: seconds(p.TimeoutSeconds), FailureThreshold: p.FailureThreshold}
	if s.Period == 0 {
		s.Period = 10 * time.Second
	}
	if s.Timeout == 0 {
		s.Timeout = time.Second
	}
	if s.FailureThreshold == 0 {
		s.FailureThreshold = 3
	}
	return s
}

func seconds(n int32) time.Duration { return time.Duration(n) * time.Second }

// resources are a pod's effective requests or limits, as component-helpers (the scheduler's
// own arithmetic) works them out with sidecars.
// asksForResources reports whether the pod's spec names any request, limit or overhead: without
// one, what it asks of the scheduler is nothing, and working that out (the helpers build maps
// for every container) was a tenth of translating a pod on the live path.
func asksForResources(p *corev1.Pod) bool {
	if p.Spec.Overhead != nil || p.Spec.Resources != nil {
		return true
	}
	for _, list := range [][]corev1.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range list {
			if r := &list[i].Resources; len(r.Requests) > 0 || len(r.Limits) > 0 {
				return true
			}
		}
	}
	return false
}

func resources(list corev1.ResourceList) map[string]string {
	if len(list) == 0 {
		return nil
	}
	out := make(map[string]string, len(list))
	for name, q := range list {
		out[string(name)] = q.String()
	}
	return out
}

func terminated(t *corev1.ContainerStateTerminated) *timeline.Terminated {
	if t == nil {
		return nil
	}
	return &timeline.Terminated{ContainerID: t.ContainerID, ExitCode: t.ExitCode, Signal: t.Signal, Reason: t.Reason,
		Message: t.Message, StartedAt: t.StartedAt.Time, FinishedAt: t.FinishedAt.Time}
}

func observeEvent(e *corev1.Event) *timeline.EventObservation {
	o := new(timeline.EventObservation)
	FillEvent(o, e)
	return o
}

// FillEvent is Observe of a core/v1 Event into o, memory the caller owns.
func FillEvent(o *timeline.EventObservation, e *corev1.Event) {
	*o = timeline.EventObservation{
		UID: string(e.UID), Namespace: e.Namespace, Name: e.Name,
		InvolvedKind: e.InvolvedObject.Kind, InvolvedName: e.InvolvedObject.Name, InvolvedUID: string(e.InvolvedObject.UID),
		FieldPath: e.InvolvedObject.FieldPath, Type: e.Type, Reason: e.Reason, Message: e.Message,
		Source: e.ReportingController, Count: e.Count, First: e.FirstTimestamp.Time, Last: e.LastTimestamp.Time,
		EventTime: e.EventTime.Time, NameTime: nameTime(e.Name),
	}
	if o.Source == "" {
		o.Source = e.Source.Component
	}
	if e.Series != nil {
		o.Count = max(o.Count, e.Series.Count)
		if o.Last.IsZero() {
			o.Last = e.Series.LastObservedTime.Time
		}
	}
	o.Container, o.ContainerKind = containerOf(o.FieldPath)
}

func observeEventsV1(e *eventsv1.Event) *timeline.EventObservation {
	o := &timeline.EventObservation{
		UID: string(e.UID), Namespace: e.Namespace, Name: e.Name,
		InvolvedKind: e.Regarding.Kind, InvolvedName: e.Regarding.Name, InvolvedUID: string(e.Regarding.UID),
		FieldPath: e.Regarding.FieldPath, Type: e.Type, Reason: e.Reason, Message: e.Note,
		Source: e.ReportingController, Count: e.DeprecatedCount, First: e.DeprecatedFirstTimestamp.Time,
		Last: e.DeprecatedLastTimestamp.Time, EventTime: e.EventTime.Time, NameTime: nameTime(e.Name),
	}
	if e.Series != nil {
		o.Count = max(o.Count, e.Series.Count)
		o.Last = e.Series.LastObservedTime.Time
	}
	o.Container, o.ContainerKind = containerOf(o.FieldPath)
	return o
}

func observeJob(j *batchv1.Job) *timeline.JobObservation {
	o := &timeline.JobObservation{
		UID: string(j.UID), Namespace: j.Namespace, Name: j.Name, ResourceVersion: j.ResourceVersion,
		Created: j.CreationTimestamp.Time, Deletion: timePtr(j.DeletionTimestamp),
		Active: j.Status.Active, Succeeded: j.Status.Succeeded, Failed: j.Status.Failed,
	}
	if j.Status.Ready != nil {
		o.Ready = *j.Status.Ready
	}
	for _, c := range j.Status.Conditions {
		o.Conditions = append(o.Conditions, timeline.Condition{Type: string(c.Type), Status: string(c.Status),
			Reason: c.Reason, Message: c.Message, LastTransition: c.LastTransitionTime.Time})
	}
	return o
}

// containerOf reads the container an Event's fieldPath names: spec.containers{app},
// spec.initContainers{sidecar}, spec.ephemeralContainers{debug}.
func containerOf(fieldPath string) (string, timeline.ContainerKind) {
	open, end := strings.IndexByte(fieldPath, '{'), strings.LastIndexByte(fieldPath, '}')
	if open < 0 || end < open {
		return "", ""
	}
	name := fieldPath[open+1 : end]
	switch fieldPath[:open] {
	case "spec.containers":
		return name, timeline.KindApp
	case "spec.initContainers":
		return name, timeline.KindInit
	case "spec.ephemeralContainers":
		return name, timeline.KindEphemeral
	}
	return "", ""
}

// nameTime reads the time client-go's event recorder encodes in an Event's name:
// "<object>.<UnixNano in hex>". It is the emitter's clock when it first made the Event, to the
// nanosecond, where the Event's own times have whole seconds. Names not of that form give zero.
func nameTime(name string) time.Time {
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 || len(name)-dot-1 < 15 || len(name)-dot-1 > 16 {
		return time.Time{}
	}
	n, err := strconv.ParseUint(name[dot+1:], 16, 64)
	if err != nil || n == 0 || n > 1<<63-1 {
		return time.Time{}
	}
	t := time.Unix(0, int64(n)).UTC()
	if t.Year() < 2015 || t.Year() > 2200 {
		return time.Time{}
	}
	return t
}

func timePtr(t *metav1.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := t.Time
	return &v
}
