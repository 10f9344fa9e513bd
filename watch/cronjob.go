package watch

import (
	"context"
	"fmt"
	"strings"
	"sync"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// cronJobJobs is which Jobs of a namespace one CronJob owns: those whose controller is the
// CronJob (by UID), as a watch of the namespace's Jobs tells them. A CronJob's pods are the pods
// of those Jobs; the CronJob controller names a Job it schedules NAME-MINUTES (the scheduled
// time in minutes since 1970), so a pod seen before its Job is known is still told by its Job's
// name. A Job made by hand from the CronJob (kubectl create job --from=cronjob/NAME) is told by
// its owner only.
type cronJobJobs struct {
	name string
	uid  types.UID

	mu   sync.Mutex
	jobs map[string]bool // the names of the CronJob's Jobs, seen so far (a deleted one stays)
}

// resolveCronJob reads the CronJob target names and the Jobs it owns now, before the pods'
// watch starts (the Jobs' watch, started beside it, may list them after the pods).
func resolveCronJob(ctx context.Context, client kubernetes.Interface, t Target) (*cronJobJobs, error) {
	cj, err := client.BatchV1().CronJobs(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("cronjob %s: %w", t.Name, err)
	}
	c := &cronJobJobs{name: cj.Name, uid: cj.UID, jobs: map[string]bool{}}
	jobs, err := client.BatchV1().Jobs(t.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("the Jobs of cronjob %s: %w", t.Name, err)
	}
	for i := range jobs.Items {
		c.acceptJob(timeline.Added, &jobs.Items[i])
	}
	return c, nil
}

// acceptJob notes a Job of the namespace that the CronJob owns.
func (c *cronJobJobs) acceptJob(_ timeline.WatchType, obj any) {
	j, ok := obj.(*batchv1.Job)
	if !ok {
		return
	}
	if ref := controllerOf(j.OwnerReferences); ref != nil && ref.Kind == "CronJob" && ref.UID == c.uid {
		c.mu.Lock()
		c.jobs[j.Name] = true
		c.mu.Unlock()
	}
}

// owns reports whether pod p belongs to one of the CronJob's Jobs.
func (c *cronJobJobs) owns(p *corev1.Pod) bool {
	ref := controllerOf(p.OwnerReferences)
	if ref == nil || ref.Kind != "Job" {
		return false
	}
	c.mu.Lock()
	known := c.jobs[ref.Name]
	c.mu.Unlock()
	return known || scheduledName(c.name, ref.Name)
}

// scheduledName reports whether job is the name the CronJob controller gives a Job of cronJob:
// cronJob, a dash, and the scheduled minute as decimal digits.
func scheduledName(cronJob, job string) bool {
	minutes, ok := strings.CutPrefix(job, cronJob+"-")
	if !ok || minutes == "" {
		return false
	}
	for _, r := range minutes {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
