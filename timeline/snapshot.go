package timeline

import (
	"slices"
	"strings"
	"time"
)

// Snapshot is the whole timeline at one moment. It is immutable: a later Snapshot shares every
// Pod, Job, Run and slice that did not change with it, so taking one costs what changed, not
// what is there. Nothing in it may be modified; everything is read only.
type Snapshot struct {
	Pods    Seq[*Pod] `json:"pods"` // by creation time
	Jobs    []*Job    `json:"jobs,omitempty"`
	Orphans []Event   `json:"-"`               // Events of objects the snapshot has no pod or job for
	Notes   []string  `json:"notes,omitempty"` // problems with the data itself, e.g. clock skew
	// Hidden counts the pods the Builder keeps as a count only (Builder.Hide): not in Pods.
	Hidden int `json:"-"`
	// Forgotten counts the pods a long run let go of once they were final (play.Engine.Retain,
	// --keep-finished) that the API still has: not in Pods. The engine sets it, not the Builder.
	Forgotten int `json:"-"`
}

// Events is every Event occurrence of the snapshot (its pods', its jobs' and the orphans), oldest
// first. It costs a merge of them all: for output at the end, not for every frame.
func (s Snapshot) Events() []Event {
	return mergeEvents(s.Pods.Len(), func(i int) Seq[Event] { return s.Pods.At(i).Events }, s.Jobs, s.Orphans)
}

// mergeEvents is the list of n pods' Events (podEvents(i) of the i-th), the jobs' and the
// orphans, in time order (ties as listed).
func mergeEvents(n int, podEvents func(i int) Seq[Event], jobs []*Job, orphans []Event) []Event {
	size := len(orphans)
	for i := range n {
		size += podEvents(i).Len()
	}
	for _, j := range jobs {
		size += j.Events.Len()
	}
	// Copied once, into a list of the size they make (a Job's 17,600 Events were gathered
	// through a copy of each pod's list into one grown as they came).
	out := make([]Event, 0, size)
	for i := range n {
		out = podEvents(i).appendTo(out)
	}
	for _, j := range jobs {
		out = j.Events.appendTo(out)
	}
	out = append(out, orphans...)
	slices.SortStableFunc(out, func(a, b Event) int { return a.At.Compare(b.At) })
	return out
}

// Pod is one pod's timeline. A pod recreated under the same name is another Pod (another UID).
type Pod struct {
	Namespace  string         `json:"namespace"`
	Name       string         `json:"name"`
	UID        string         `json:"uid"`
	Node       string         `json:"node,omitempty"`
	Owner      *OwnerRef      `json:"owner,omitempty"` // the controller, e.g. a Job
	Created    time.Time      `json:"created"`
	Phase      string         `json:"phase"`
	Status     string         `json:"status"` // kubectl's STATUS now
	Deleted    bool           `json:"deleted,omitempty"`
	LastSeen   time.Time      `json:"lastSeen"` // receive time of the last observation of this pod
	Statuses   []StatusChange `json:"statuses"`
	Milestones Seq[Milestone] `json:"milestones"` // pod-level: created, scheduled, initialized, ready, ...
	Containers []Container    `json:"containers"`
	Gaps       []Gap          `json:"gaps,omitempty"`
	// UnknownGaps are the named gaps whose ends are no times of the pod (see UnknownGap).
	UnknownGaps []UnknownGap `json:"unknownGaps,omitempty"`
	Events      Seq[Event]   `json:"-"` // this pod's Event occurrences, oldest first
	// Requests and Limits are what the pod asks of the scheduler with its sidecars, by resource.
	Requests map[string]string `json:"requests,omitempty"`
	Limits   map[string]string `json:"limits,omitempty"`
	// Brief says this is the pod's brief, from a Builder in brief mode (see Builder.Brief): its
	// fields, gaps, findings, and of each lane its last run's exit and last state change; no pod
	// row, Events or other milestone. Refresh has it derived whole.
	Brief bool `json:"-"`

	memo *podMemo // what is derived on demand: rows, findings
}

// OwnerRef names the controller of a pod.
type OwnerRef struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	UID  string `json:"uid,omitempty"`
}

// String is Kind/Name.
func (o OwnerRef) String() string { return o.Kind + "/" + o.Name }

// StatusChange is a change of kubectl's STATUS column, placed when it was observed.
type StatusChange struct {
	At     time.Time `json:"at"`
	Status string    `json:"status"`
	Phase  string    `json:"phase"`
}

// Container is one container's lane: its runs, oldest first.
type Container struct {
	Name         string        `json:"name"`
	Kind         ContainerKind `json:"kind"`
	RestartCount int32         `json:"restartCount"`
	State        string        `json:"state"` // the latest state, as a short phrase
	// Runs are the lane's attempts in order, each with its milestones and state changes. An
	// attempt appears once anything belongs to it (a wait, a back-off, an Event, a run).
	Runs Seq[*Run] `json:"-"`
	// Since is when the lane begins, pending: the pod's creation. End is when it ends: the pod's
	// deletion from the API; zero while it is open.
	Since, End time.Time `json:"-"`
}

// Run is what belongs to one attempt of a container: the milestones of the run (and of the wait
// before it), and the lane's state changes from its first until the next run's first.
type Run struct {
	Attempt    int32
	Milestones []Milestone   // in the order Before gives
	Changes    []StateChange // in time order
	Log        *RunLog       // what the run's log says, when it was read
}

// StateChange is where a lane enters a state.
type StateChange struct {
	At     time.Time
	State  LaneState
	Reason string
}

// LaneState is what a lane segment shows.
type LaneState string

// Lane states, in the order a container usually passes through them.
const (
	StatePending     LaneState = "pending"     // no status for the container yet
	StateWaiting     LaneState = "waiting"     // waiting, with a reason
	StateRunning     LaneState = "running"     // running, not yet started (startup probe) or not ready
	StateStarted     LaneState = "started"     // started, not ready
	StateReady       LaneState = "ready"       // running and ready
	StateTerminating LaneState = "terminating" // signalled, not yet exited
	StateTerminated  LaneState = "terminated"  // exited
)

// Segment is a stretch of one lane in one state. To is zero while the segment is still open.
type Segment struct {
	State  LaneState `json:"state"`
	Reason string    `json:"reason,omitempty"`
	From   time.Time `json:"from"`
	To     time.Time `json:"to,omitzero"`
}

// MilestoneKind names a milestone.
type MilestoneKind string

// Milestone kinds. Container lanes use Created to Exit; the pod row and job lane use the rest
// (and Created).
const (
	MCreated     MilestoneKind = "created"
	MWaiting     MilestoneKind = "waiting"
	MStart       MilestoneKind = "start"   // the first run of the container began
	MRestart     MilestoneKind = "restart" // a later run began; Attempt counts restarts
	MStarted     MilestoneKind = "started" // startup probe passed (or none): the next container may start
	MReady       MilestoneKind = "ready"
	MNotReady    MilestoneKind = "not-ready"
	MProbeFailed MilestoneKind = "probe-failed"
	MBackOff     MilestoneKind = "back-off"
	MPreStop     MilestoneKind = "prestop" // the preStop hook began
	MSigterm     MilestoneKind = "sigterm"
	MExit        MilestoneKind = "exit"

	MScheduled       MilestoneKind = "scheduled"
	MInitialized     MilestoneKind = "initialized"
	MContainersReady MilestoneKind = "containers-ready"
	MDisruption      MilestoneKind = "disruption" // DisruptionTarget: an eviction, the pod garbage collector, ...
	MDeleting        MilestoneKind = "deleting"   // deletion requested
	MDeleted         MilestoneKind = "deleted"    // the object is gone from the API
	MPhase           MilestoneKind = "phase"      // a terminal phase: Reason is Succeeded or Failed
	MCondition       MilestoneKind = "condition"
)

// Source says what a milestone's time rests on.
type Source string

// Sources, from the best evidence to the weakest.
const (
	SourceEvent    Source = "event"    // a kubelet or controller Event
	SourceStatus   Source = "status"   // a time field of the object's status (whole seconds)
	SourceObserved Source = "observed" // a change first seen in a watch event; no time field
	SourceInferred Source = "inferred" // nobody reports it: derived from the kubelet's rules
	SourceLog      Source = "log"      // a line of the container's log (the runtime's ns stamp)
	SourceKubelet  Source = "kubelet"  // a line of the kubelet's own log (node log query, µs)
)

// Milestone is one thing that happened, with the interval it certainly happened in.
type Milestone struct {
	Kind      MilestoneKind `json:"kind"`
	Container string        `json:"container,omitempty"`
	Attempt   int32         `json:"attempt"`           // the container's run: 0 first, n after n restarts
	At        time.Time     `json:"at"`                // best estimate, within [Earliest, Latest]
	Earliest  time.Time     `json:"earliest,omitzero"` // zero: no bound known on that side
	Latest    time.Time     `json:"latest,omitzero"`
	Source    Source        `json:"source"`
	Reason    string        `json:"reason,omitempty"`
	Message   string        `json:"message,omitempty"`
	ExitCode  *int32        `json:"exitCode,omitempty"`
	Signal    string        `json:"signal,omitempty"` // SIGKILL for exit code 137, SIGTERM for 143
	Count     int32         `json:"count,omitempty"`  // the Event's count, for repeated events
	Evidence  []Evidence    `json:"evidence"`
	Offset    Span          `json:"offset"` // from the pod's (or job's) creation
	// Why says what in the spec or the kubelet's rhythm explains when it came, if anything does.
	Why string `json:"why,omitempty"`
	// Gap is from the previous milestone of the same pod. It is set in Pod.Rows and in JSON
	// output, not in the milestones a Snapshot holds, since one new milestone changes the next
	// one's gap.
	Gap *Span `json:"gap,omitempty"`
}

// Evidence is one fact a milestone's time rests on.
type Evidence struct {
	What      string    `json:"what"`                // e.g. "status.containerStatuses[app].state.terminated.finishedAt"
	API       time.Time `json:"api,omitzero"`        // the server's time
	Precision string    `json:"precision,omitempty"` // of API: 1s or 1µs
	NameTime  time.Time `json:"nameTime,omitzero"`   // from the Event's name (emitter's clock, ns)
	Received  time.Time `json:"received,omitzero"`   // local receive time of the watch event
	At        time.Time `json:"at,omitzero"`         // a log line's stamp (the runtime's or the kubelet's clock)
	Note      string    `json:"note,omitempty"`
}

// Gap is one of the named lifecycle gaps between two milestones.
type Gap struct {
	Name string       `json:"name"` // e.g. "init exit → sidecar start"
	From MilestoneRef `json:"from"`
	To   MilestoneRef `json:"to"`
	Span Span         `json:"span"`
	Why  string       `json:"why,omitempty"` // what explains it, if anything does
}

// UnknownGap is a named gap whose ends are not sane times of the pod (see saneGap): it is not
// among the pod's Gaps, a note says why, and an assertion on it fails with Why.
type UnknownGap struct {
	Name string       `json:"name"`
	From MilestoneRef `json:"from"`
	To   MilestoneRef `json:"to"`
	Why  string       `json:"why"`
}

// MilestoneRef names a milestone within a pod.
type MilestoneRef struct {
	Container string        `json:"container,omitempty"`
	Kind      MilestoneKind `json:"kind"`
	Attempt   int32         `json:"attempt"`
}

// Severity says how much a finding matters.
type Severity string

// Severities.
const (
	SeverityInfo    Severity = "info"
	SeverityWarning Severity = "warning"
)

// Finding is something the timeline shows that a user should know, in words. ID says which rule
// found it, for programs (a test, a CI gate) that look for one finding without reading the words.
type Finding struct {
	ID        FindingID `json:"id"`
	Severity  Severity  `json:"severity"`
	Pod       string    `json:"pod,omitempty"` // the pod's name
	Container string    `json:"container,omitempty"`
	Text      string    `json:"text"`
}

// Line is the finding in words, on one line, as the view, the plain output and the exports
// list it: its container named when the text does not name it, and its pod when that is not
// within (the pod it is listed under). The text is as the cluster's names made it: whoever
// shows it escapes it.
func (f *Finding) Line(within string) string {
	text := f.Text
	if f.Container != "" && !strings.Contains(text, f.Container) {
		text = f.Container + ": " + text
	}
	if f.Pod != "" && f.Pod != within {
		text = "pod " + f.Pod + ": " + text
	}
	return strings.Join(strings.Fields(text), " ")
}

// FindingID names the rule behind a finding. It is stable: the words may change, the ID does not.
type FindingID string

// The findings' IDs, one per rule (readiness has two: the Pod's Ready waited for a sidecar, and
// the Pod is not Ready now only because of one).
const (
	FindingClassicSidecarBlocks FindingID = "classic-sidecar-blocks"
	FindingKilledAfterGrace     FindingID = "killed-after-grace"
	FindingReadinessHeld        FindingID = "readiness-held-by-sidecar"
	FindingReadinessGateHeld    FindingID = "readiness-gate-held"
	FindingSidecarNotReady      FindingID = "sidecar-not-ready"
	FindingCrashLoop            FindingID = "crash-loop"
	FindingSlowStartup          FindingID = "slow-startup"
	FindingStoppedTogether      FindingID = "stopped-together"
	FindingPreStopUsedGrace     FindingID = "prestop-used-grace"
	FindingSidecarRaced         FindingID = "sidecar-raced"
	FindingStartupProbeTimedOut FindingID = "startup-probe-timed-out"
	FindingSidecarTeardownExit  FindingID = "sidecar-teardown-exit"
	FindingGraceSpentByApps     FindingID = "grace-spent-by-apps"
	FindingRestartPolicyOnApp   FindingID = "restart-policy-on-app"
	FindingAppCrashedPodRunning FindingID = "app-crashed-pod-running"
	FindingPostStartDelays      FindingID = "poststart-delays-start"
)

// Job is a Job's own lane: its conditions over time.
type Job struct {
	Namespace  string      `json:"namespace"`
	Name       string      `json:"name"`
	UID        string      `json:"uid"`
	Created    time.Time   `json:"created"`
	Status     string      `json:"status"` // Running, Complete, Failed, Suspended
	Active     int32       `json:"active"`
	Succeeded  int32       `json:"succeeded"`
	Failed     int32       `json:"failed"`
	Deleted    bool        `json:"deleted,omitempty"`
	Milestones []Milestone `json:"milestones"`
	Events     Seq[Event]  `json:"-"` // the Job's own Event occurrences, oldest first
}

// Event is one occurrence of an Event, for the recent-events list.
type Event struct {
	At        time.Time `json:"at"`
	Object    string    `json:"object"` // Pod/name or Job/name
	Container string    `json:"container,omitempty"`
	Type      string    `json:"type"`
	Reason    string    `json:"reason"`
	Message   string    `json:"message"`
	Count     int32     `json:"count"`
}
