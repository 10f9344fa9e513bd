package timeline

import "slices"

// Scope says which rows of a timeline a milestone kind appears on: a container's lane, the pod
// row, the Job's lane. A kind may appear on several.
type Scope uint8

// The scopes.
const (
	ScopeContainer Scope = 1 << iota
	ScopePod
	ScopeJob
)

// KindInfo is everything every package needs to know about a milestone kind, declared once in
// Kinds. How a kind is drawn (glyph, colour, legend) lives in package present, which keeps one
// row for each kind here.
type KindInfo struct {
	Kind  MilestoneKind
	Scope Scope
	// Rank orders milestones of different kinds that share a time in the order they happen.
	Rank int
	// Display names the kind in the view's table and every export (Milestone.KindName).
	Display string
	// Assert names the kind in the assertion language (proxy.not_ready).
	Assert string
	// Latest says that, without [n], an assertion reads the latest occurrence, not the first.
	Latest bool
	// Refinable says a log line's mark may refine the milestone (--mark NAME=...); the names of
	// the other kinds are reserved.
	Refinable bool
	// Doc says what the milestone is, in a line.
	Doc string
}

// On reports whether the kind appears on rows of scope s.
func (k KindInfo) On(s Scope) bool { return k.Scope&s != 0 }

// kinds is the registry, in the order a container and a pod pass through them.
var kinds = []KindInfo{
	{MCreated, ScopeContainer | ScopePod | ScopeJob, 0, "created", "created", false, false,
		"the object was created (a container: its lane begins with the pod)"},
	{MScheduled, ScopePod, 1, "scheduled", "scheduled", false, false,
		"the scheduler bound the pod to a node (PodScheduled)"},
	{MWaiting, ScopeContainer, 2, "waiting", "waiting", false, false,
		"the container waits: CrashLoopBackOff, ImagePullBackOff, ... (reason)"},
	{MStart, ScopeContainer, 3, "start", "start", false, true,
		"the container's first run began"},
	{MRestart, ScopeContainer, 3, "restart", "restart", true, false,
		"a later run began; attempt counts restarts"},
	{MStarted, ScopeContainer, 4, "started", "started", false, false,
		"the startup probe passed (or there is none): the kubelet may start the next container"},
	{MInitialized, ScopePod, 5, "initialized", "initialized", false, false,
		"every init container finished and every sidecar started (Initialized)"},
	{MContainersReady, ScopePod, 6, "ctrs-ready", "containers_ready", false, false,
		"every container is ready (ContainersReady)"},
	{MReady, ScopeContainer | ScopePod, 6, "ready", "ready", false, true,
		"the readiness probe passed (a pod: Ready)"},
	{MNotReady, ScopeContainer | ScopePod, 8, "not-ready", "not_ready", true, false,
		"ready no longer"},
	{MProbeFailed, ScopeContainer, 7, "probe-failed", "probe_failed", false, false,
		"a probe failed (reason Startup, Readiness or Liveness; count)"},
	{MBackOff, ScopeContainer, 8, "back-off", "back_off", true, false,
		"the kubelet backs off restarting the container"},
	{MDisruption, ScopePod, 9, "disruption", "disruption", false, false,
		"the pod is to be disrupted (DisruptionTarget; reason EvictionByEvictionAPI, DeletionByPodGC, PreemptionByScheduler, ...)"},
	{MDeleting, ScopePod, 9, "deleting", "deleting", true, false,
		"deletion was requested (deletionTimestamp)"},
	{MPreStop, ScopeContainer, 10, "prestop", "prestop", true, false,
		"the preStop hook began"},
	{MSigterm, ScopeContainer, 10, "sigterm", "sigterm", true, true,
		"the kubelet sent SIGTERM"},
	{MExit, ScopeContainer, 11, "exit", "exit", true, true,
		"the run ended (exitCode, reason; signal: SIGKILL for 137, SIGTERM for 143)"},
	{MDeleted, ScopePod | ScopeJob, 13, "deleted", "deleted", true, false,
		"the object is gone from the API"},
	{MPhase, ScopePod, 12, "phase", "phase", true, false,
		"the pod reached a terminal phase (reason Succeeded or Failed)"},
	{MCondition, ScopeJob, 12, "job", "", false, false,
		"a Job condition (reason Complete, SuccessCriteriaMet, Failed, ...)"},
}

// Kinds returns the registry of milestone kinds, in the order a container and a pod pass
// through them.
func Kinds() []KindInfo { return slices.Clone(kinds) }

// kindIndex finds a kind's row.
var kindIndex = func() map[MilestoneKind]int {
	m := make(map[MilestoneKind]int, len(kinds))
	for i, k := range kinds {
		m[k.Kind] = i
	}
	return m
}()

// InfoOf returns the kind's row of the registry; ok is false for a kind it does not declare.
func InfoOf(k MilestoneKind) (info KindInfo, ok bool) {
	i, ok := kindIndex[k]
	if !ok {
		return KindInfo{}, false
	}
	return kinds[i], true
}

// kindRank is each kind's Rank, for Before.
var kindRank = func() map[MilestoneKind]int {
	m := make(map[MilestoneKind]int, len(kinds))
	for _, k := range kinds {
		m[k.Kind] = k.Rank
	}
	return m
}()
