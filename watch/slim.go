package watch

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// slim returns a new object holding only what translation (Observe and podStatus) reads of a
// Pod, an Event or a Job, with the kind and apiVersion set as Sanitize sets them; other
// objects come back as they are. It fits cache.TransformFunc: a live view that does not record
// keeps slim objects in its informer caches, a few hundred bytes for a pod instead of tens of
// kilobytes (images, volumes, resources, environment, labels and annotations are gone). A
// recording needs whole objects, so a Live that records uses Sanitize instead.
//
// Whatever translation starts to read must be kept here too, and declared in package recfile's
// translatedFields: TestTranslatedFieldsAreDeclared fails until it is declared, and
// TestFastDecodeReadsEveryTranslatedField until it is kept here and by the recording reader.
func slim(obj any) (any, error) {
	return Slim(obj), nil
}

// Slim is what a live view that does not record keeps of an object (see slim): what its
// informers deliver to the player. Benchmarks of the live path feed it.
func Slim(obj any) any {
	switch o := obj.(type) {
	case *corev1.Pod:
		return slimPod(o)
	case *corev1.Event:
		return slimEvent(o)
	case *batchv1.Job:
		return SlimJob(o)
	}
	return obj
}

// SlimMeta keeps the identity, the times translation reads, and the controller reference: what
// Slim keeps of an object's metadata, and what the recording reader's slim decode makes (package
// recfile).
func SlimMeta(m *metav1.ObjectMeta) metav1.ObjectMeta {
	s := metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion,
		CreationTimestamp: m.CreationTimestamp, DeletionTimestamp: m.DeletionTimestamp,
		DeletionGracePeriodSeconds: m.DeletionGracePeriodSeconds}
	if ref := controllerOf(m.OwnerReferences); ref != nil {
		s.OwnerReferences = []metav1.OwnerReference{*ref}
	}
	return s
}

// controllerOf is metav1.GetControllerOfNoCopy of an object with these owner references: taking
// the object as a metav1.Object made every pod's metadata escape to the heap where a slim reader
// builds it (a tenth of what reading a pod line allocated).
func controllerOf(refs []metav1.OwnerReference) *metav1.OwnerReference {
	for i := range refs {
		if refs[i].Controller != nil && *refs[i].Controller {
			return &refs[i]
		}
	}
	return nil
}

func slimPod(p *corev1.Pod) *corev1.Pod {
	return &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: SlimMeta(&p.ObjectMeta),
		Spec:       SlimSpec(&p.Spec),
		Status: corev1.PodStatus{
			Phase: p.Status.Phase, Reason: p.Status.Reason,
			Conditions:                 slimPodConditions(p.Status.Conditions),
			InitContainerStatuses:      slimStatuses(p.Status.InitContainerStatuses),
			ContainerStatuses:          slimStatuses(p.Status.ContainerStatuses),
			EphemeralContainerStatuses: slimStatuses(p.Status.EphemeralContainerStatuses),
		},
	}
}

// SlimSpec is what Slim keeps of a pod's spec, and what the recording reader's spec cache keeps
// when it decodes slim.
func SlimSpec(p *corev1.PodSpec) corev1.PodSpec {
	s := corev1.PodSpec{
		NodeName: p.NodeName, RestartPolicy: p.RestartPolicy,
		TerminationGracePeriodSeconds: p.TerminationGracePeriodSeconds,
		Overhead:                      p.Overhead, Resources: p.Resources, // what the pod asks of the scheduler
		InitContainers: slimContainers(p.InitContainers),
		Containers:     slimContainers(p.Containers),
		ReadinessGates: p.ReadinessGates, // the condition types the pod's Ready waits for
	}
	for i := range p.EphemeralContainers {
		c := corev1.Container(p.EphemeralContainers[i].EphemeralContainerCommon)
		s.EphemeralContainers = append(s.EphemeralContainers, corev1.EphemeralContainer{
			EphemeralContainerCommon: corev1.EphemeralContainerCommon(slimContainer(&c))})
	}
	return s
}

// Translation asks whether a container has a postStart and a preStop hook, so an empty one
// stands for each; of probes it reads the timing.
var (
	somePreStop   = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{}}
	somePostStart = &corev1.Lifecycle{PostStart: &corev1.LifecycleHandler{}}
	someHooks     = &corev1.Lifecycle{PostStart: &corev1.LifecycleHandler{}, PreStop: &corev1.LifecycleHandler{}}
)

func slimProbe(p *corev1.Probe) *corev1.Probe {
	if p == nil {
		return nil
	}
	return &corev1.Probe{InitialDelaySeconds: p.InitialDelaySeconds, PeriodSeconds: p.PeriodSeconds,
		TimeoutSeconds: p.TimeoutSeconds, FailureThreshold: p.FailureThreshold}
}

func slimContainers(list []corev1.Container) []corev1.Container {
	if list == nil {
		return nil
	}
	out := make([]corev1.Container, len(list))
	for i := range list {
		out[i] = slimContainer(&list[i])
	}
	return out
}

func slimContainer(c *corev1.Container) corev1.Container {
	s := corev1.Container{Name: c.Name, RestartPolicy: c.RestartPolicy, Resources: c.Resources,
		StartupProbe: slimProbe(c.StartupProbe), ReadinessProbe: slimProbe(c.ReadinessProbe),
		LivenessProbe: slimProbe(c.LivenessProbe)}
	if l := c.Lifecycle; l != nil {
		switch {
		case l.PostStart != nil && l.PreStop != nil:
			s.Lifecycle = someHooks
		case l.PostStart != nil:
			s.Lifecycle = somePostStart
		case l.PreStop != nil:
			s.Lifecycle = somePreStop
		}
	}
	return s
}

func slimPodConditions(list []corev1.PodCondition) []corev1.PodCondition {
	if list == nil {
		return nil
	}
	out := make([]corev1.PodCondition, len(list))
	for i, c := range list {
		out[i] = corev1.PodCondition{Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message,
			LastTransitionTime: c.LastTransitionTime}
	}
	return out
}

func slimStatuses(list []corev1.ContainerStatus) []corev1.ContainerStatus {
	if list == nil {
		return nil
	}
	out := make([]corev1.ContainerStatus, len(list))
	for i := range list {
		c := &list[i]
		out[i] = corev1.ContainerStatus{Name: c.Name, ContainerID: c.ContainerID, RestartCount: c.RestartCount,
			Ready: c.Ready, Started: c.Started, State: c.State, LastTerminationState: c.LastTerminationState}
	}
	return out
}

func slimEvent(e *corev1.Event) *corev1.Event {
	s := &corev1.Event{
		TypeMeta: metav1.TypeMeta{Kind: "Event", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: e.Name, Namespace: e.Namespace, UID: e.UID,
			ResourceVersion: e.ResourceVersion},
		InvolvedObject: corev1.ObjectReference{Kind: e.InvolvedObject.Kind, Name: e.InvolvedObject.Name,
			UID: e.InvolvedObject.UID, FieldPath: e.InvolvedObject.FieldPath},
		Type: e.Type, Reason: e.Reason, Message: e.Message, ReportingController: e.ReportingController,
		Source: corev1.EventSource{Component: e.Source.Component}, Count: e.Count,
		FirstTimestamp: e.FirstTimestamp, LastTimestamp: e.LastTimestamp, EventTime: e.EventTime,
	}
	if e.Series != nil {
		s.Series = &corev1.EventSeries{Count: e.Series.Count, LastObservedTime: e.Series.LastObservedTime}
	}
	return s
}

// SlimJob is what Slim keeps of a Job.
func SlimJob(j *batchv1.Job) *batchv1.Job {
	s := &batchv1.Job{
		TypeMeta:   metav1.TypeMeta{Kind: "Job", APIVersion: "batch/v1"},
		ObjectMeta: SlimMeta(&j.ObjectMeta),
		Status: batchv1.JobStatus{Active: j.Status.Active, Succeeded: j.Status.Succeeded, Failed: j.Status.Failed,
			Ready: j.Status.Ready},
	}
	for _, c := range j.Status.Conditions {
		s.Status.Conditions = append(s.Status.Conditions, batchv1.JobCondition{Type: c.Type, Status: c.Status,
			Reason: c.Reason, Message: c.Message, LastTransitionTime: c.LastTransitionTime})
	}
	return s
}
