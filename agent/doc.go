// Package agent is sidecar-top's headless mode (`sidecar-top agent`): it watches the pods of a
// scope with the same engine as the view (one play.Engine, fed by a play.Source from package
// source) and publishes what their timelines say as Prometheus metrics and OTLP traces.
//
// A pod is observed once, when it is final: its phase is terminal (Succeeded or Failed) and
// every container that ran has exited, or it was deleted and is gone. Then each of its named
// gaps (timeline.Pod.Gaps) is observed in sidecar_top_gap_seconds, the width of its bounds in
// sidecar_top_gap_uncertainty_seconds, its findings and its containers' restarts are counted,
// and its trace is sent. A pod that is not final --trace-after after its creation has its
// trace cut and sent then; its gaps still wait for it to be final.
//
// High availability: several replicas may run with leader election on a Lease; only the
// leader observes gaps, counts findings and restarts, and sends traces. The standby watches
// the same pods, so that it can lead at once, and counts nothing. A pod is counted once, by
// the replica that leads when the pod becomes final. A replica skips every pod that was
// already final in its first list (its counting belonged to whoever led then) and every pod
// that became final while it was standby; pods becoming final after it leads are its own. A
// relisted watch (410 Gone, an API server restarted) brings back pods the agent has already
// seen: they are remembered by UID and not counted again. The price: a pod that became final
// during a failover (after the old leader stopped counting, before the new one leads: at most
// the Lease's duration) is counted by neither.
//
// The package knows no terminal: what it logs goes through log/slog, whose JSON handler
// quotes every string it writes, so names from the cluster cannot move a terminal's cursor.
package agent
