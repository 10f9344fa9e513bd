package timeline

import "time"

// Disruptions (the DisruptionTarget condition, KEP-3329): the API server's eviction, the
// scheduler's preemption, the taint manager and the pod garbage collector each write the
// condition in a status update first and delete the pod after it. When the condition was seen
// no later than the deletion, it came before the deletion request: its bounds and estimate end
// where the deletion's do. (Watches of Pods and Events run apart, so a Killing Event can bound
// the deletion above before the condition's own update arrives.) The kubelet's own reason,
// TerminationByKubelet, deletes nothing, and a condition seen after the deletion (the pod
// garbage collector ending a pod someone else deleted) says nothing of its order.

// disruptionDeletes are the reasons whose writer deletes the pod after it sets the condition.
var disruptionDeletes = map[string]bool{
	"EvictionByEvictionAPI":  true,
	"PreemptionByScheduler":  true,
	"DeletionByTaintManager": true,
	"DeletionByPodGC":        true,
}

// disruptionBeforeDeletion bounds the disruption dis, seen as c, above by the deletion del,
// seen as s, and reads its estimate no later than the deletion's.
func (d *deriver) disruptionBeforeDeletion(dis *Milestone, c *conditionChange, del *Milestone, s *seen) {
	if !disruptionDeletes[c.Reason] || c.at.After(s.at) || del.Latest.Before(dis.Earliest) {
		return // not a deleter's, seen after the deletion, or times that disagree: as the API said
	}
	if del.Latest.Before(dis.Latest) {
		iv := d.bound(interval{dis.Earliest, dis.Latest}, time.Time{}, del.Latest)
		dis.Latest, dis.At = iv.hi, iv.clamp(dis.At)
		dis.Evidence = append(dis.Evidence, Evidence{What: "before the deletion request", API: del.Latest,
			Note: c.Reason + " sets the condition, then deletes the pod"})
	}
	if del.At.Before(dis.At) {
		dis.At = later(dis.Earliest, del.At)
	}
}
