package timeline

import "time"

// WatchType says what a watch event did to its object.
type WatchType string

// The watch event types, as kubectl prints them with --output-watch-events.
const (
	Added    WatchType = "ADDED"
	Modified WatchType = "MODIFIED"
	Deleted  WatchType = "DELETED"
)

// An Observation is one watch event, already translated from its API object, stamped with the
// local time it was received; or what a container's log or the kubelet's log said. Exactly one
// of Pod, Event, Job, Log and Kubelet is set.
type Observation struct {
	Received time.Time
	Type     WatchType
	Pod      *PodObservation
	Event    *EventObservation
	Job      *JobObservation
	Log      *LogObservation
	Kubelet  *KubeletObservation
}

// ContainerKind is the role of a container in its pod, which decides its lane's place and the
// rules the kubelet applies to it.
type ContainerKind string

// The container kinds, in lane order.
const (
	KindInit      ContainerKind = "init"      // an init container that runs to completion
	KindSidecar   ContainerKind = "sidecar"   // an init container with restartPolicy: Always
	KindApp       ContainerKind = "app"       // a regular container
	KindEphemeral ContainerKind = "ephemeral" // an ephemeral (debug) container
)

// PodObservation is what one Pod object said.
type PodObservation struct {
	UID, Namespace, Name, ResourceVersion string
	Node                                  string
	OwnerKind, OwnerName, OwnerUID        string // the controller, if any (e.g. Job)
	Created                               time.Time
	Deletion                              *time.Time // metadata.deletionTimestamp
	DeletionGrace                         *int64     // metadata.deletionGracePeriodSeconds
	GracePeriod                           int64      // spec.terminationGracePeriodSeconds
	RestartPolicy                         string
	Phase                                 string
	Reason                                string // status.reason
	Status                                string // kubectl's STATUS column for this object
	Conditions                            []Condition
	// ReadinessGates are the condition types of spec.readinessGates: the pod is Ready only once
	// every container is and each of these conditions (set by a controller) is True.
	ReadinessGates []string
	Containers     []ContainerObservation // lane order: init and sidecars, app, ephemeral
	// Requests and Limits are what the pod asks of the scheduler, with sidecars (the larger of
	// the init-time peak and the sum of apps and sidecars), as quantities by resource name.
	Requests, Limits map[string]string
}

// Condition is one pod or job condition.
type Condition struct {
	Type, Status, Reason, Message string
	LastTransition                time.Time // whole seconds
}

// ContainerObservation is one container's spec facts and, once the kubelet reported it, status.
type ContainerObservation struct {
	Name              string
	Kind              ContainerKind
	HasStartupProbe   bool
	HasReadinessProbe bool
	HasPreStop        bool
	// HasPostStart says the spec declares a postStart hook: the kubelet runs it to its end
	// before it counts the container started and before it starts the next container.
	HasPostStart bool
	// The probes' timing, zero when there is none: what explains a gap (why).
	Startup, Readiness, Liveness ProbeSpec
	// RestartPolicy is the container's own restartPolicy: Always for a sidecar; on a regular
	// container it is the ContainerRestartRules feature, not a sidecar.
	RestartPolicy string
	Status        *ContainerStatus
}

// ProbeSpec is when a probe runs and how often it may fail.
type ProbeSpec struct {
	InitialDelay, Period, Timeout time.Duration
	FailureThreshold              int32
}

// ContainerStatus is a container's status as the kubelet reported it.
type ContainerStatus struct {
	ContainerID    string
	RestartCount   int32
	Ready          bool
	Started        *bool
	Waiting        *Waiting
	Running        *Running
	Terminated     *Terminated
	LastTerminated *Terminated
}

// Waiting is a waiting container state.
type Waiting struct{ Reason, Message string }

// Running is a running container state. StartedAt has whole-second precision.
type Running struct {
	ContainerID string
	StartedAt   time.Time
}

// Terminated is a terminated container state. Times have whole-second precision.
type Terminated struct {
	ContainerID           string
	ExitCode, Signal      int32
	Reason, Message       string
	StartedAt, FinishedAt time.Time
}

// EventObservation is what one Event object said, from core/v1 or events.k8s.io/v1.
type EventObservation struct {
	UID, Namespace, Name string
	InvolvedKind         string
	InvolvedName         string
	InvolvedUID          string
	FieldPath            string        // e.g. spec.initContainers{sidecar}
	Container            string        // the container FieldPath names, if any
	ContainerKind        ContainerKind // init for spec.initContainers (sidecar or not), app, ephemeral
	Type                 string        // Normal or Warning
	Reason, Message      string
	Source               string // the reporting component
	Count                int32  // occurrences so far (1 if unset)
	First, Last          time.Time
	EventTime            time.Time // microseconds, when set
	NameTime             time.Time // nanoseconds, from a client-go event name's hex suffix
}

// JobObservation is what one Job object said.
type JobObservation struct {
	UID, Namespace, Name, ResourceVersion string
	Created                               time.Time
	Deletion                              *time.Time
	Conditions                            []Condition
	Active, Succeeded, Failed, Ready      int32
}

// LogObservation is what one run of a container wrote to its log since the last observation of
// it: the container runtime's nanosecond stamp of each line (kubectl logs --timestamps), and
// the text of lines that matched a mark. A line is stamped when the runtime read it, just after
// the container wrote it.
type LogObservation struct {
	Namespace, Pod, PodUID, Container string
	ContainerID                       string // the run, when known
	Attempt                           int32  // the run's restart count; -1 when not known
	// FromStart says the run's log was read from its beginning: Lines[0] is its first line.
	FromStart bool
	Lines     []LogLine
	// End says the run's log is over: the stream ended because the run exited (or the pod went).
	End bool
}

// LogLine is one line a container wrote.
type LogLine struct {
	At   time.Time // the runtime's stamp, ns
	Len  int       // bytes
	Mark string    // the mark it matched, if any (see Mark)
	Text string    // the text, when it matched a mark (recordings keep other lines' text only if asked)
}

// KubeletObservation is a line of the kubelet's own log (node log query) that places what no
// API object says: the instant the kubelet had the runtime stop a container, after its preStop
// hook and its turn, which is when the runtime sends SIGTERM.
type KubeletObservation struct {
	Node                              string
	At                                time.Time // the kubelet's stamp (microseconds)
	Namespace, Pod, PodUID, Container string
	ContainerID                       string
	GracePeriod                       int64 // the grace period the container got, seconds
}

// A Mark is a milestone the app defines: a line of container Container (or any, for "*") that
// matches a pattern is a milestone named Name at the line's stamp. A mark named like a built-in
// milestone refines it instead: "start" and "sigterm" (the line comes after them), "ready" and
// "exit" (the line comes before them).
type Mark struct {
	Container, Name string
}
