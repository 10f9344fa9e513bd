package watch

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// ownedBy is a controller reference to kind/name with uid.
func ownedBy(kind, name, uid string) []metav1.OwnerReference {
	return []metav1.OwnerReference{{Kind: kind, Name: name, UID: types.UID(uid), Controller: ptr.To(true)}}
}

// jobPod is a pod of Job job.
func jobPod(name, uid, version, job string) *corev1.Pod {
	p := testPod(name, uid, version, map[string]string{batchv1.JobNameLabel: job})
	p.OwnerReferences = ownedBy("Job", job, job+"-uid")
	return p
}

// TestLiveCronJob: cronjob/NAME watches the pods of the CronJob's Jobs: a Job it scheduled
// (NAME-MINUTES, even before the Job is seen), one made by hand from it (known by its owner,
// listed before the pods' watch starts, or seen by the Jobs' watch later), not another
// CronJob's whose name starts alike, nor a Job of its own.
func TestLiveCronJob(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	defer cancel()
	cron := &batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: "nightly", Namespace: "ns", UID: "cj-uid"}}
	manual := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "nightly-manual", Namespace: "ns", UID: "m-uid",
		OwnerReferences: ownedBy("CronJob", "nightly", "cj-uid")}}
	c := newFakeCluster(cron, manual)

	l := NewLive(c, Target{Kind: TargetCronJob, Name: "weekly", Namespace: "ns"})
	if err := l.Start(ctx); err == nil || !strings.Contains(err.Error(), "cronjob weekly") || !strings.Contains(err.Error(), "not found") {
		t.Errorf("Start(cronjob/weekly) error = %v, want one saying cronjob weekly is not found", err)
	}

	l = startLive(t, ctx, c, Target{Kind: TargetCronJob, Name: "nightly", Namespace: "ns"}, LiveOptions{Recording: true},
		"pods", "jobs", "events")
	pods, jobs := c.CoreV1().Pods("ns"), c.BatchV1().Jobs("ns")
	got := &collector{t: t, ctx: ctx, l: l}
	create(t, ctx, pods.Create, jobPod("other-1", "o1", "2", "nightly-backup-29012345")) // another CronJob's
	create(t, ctx, pods.Create, jobPod("own-job", "o2", "3", "solo"))                    // a Job of its own
	create(t, ctx, pods.Create, jobPod("scheduled", "s1", "4", "nightly-29012345"))      // scheduled: by its name
	got.next(1)
	create(t, ctx, pods.Create, jobPod("by-hand", "h1", "5", "nightly-manual")) // listed at Start
	got.next(1)
	create(t, ctx, jobs.Create, &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "nightly-again", Namespace: "ns",
		UID: "a-uid", ResourceVersion: "6", OwnerReferences: ownedBy("CronJob", "nightly", "cj-uid")}})
	for waited := 0; ; waited++ { // the Jobs' watch tells of it in its own time
		l.cron.mu.Lock()
		known := l.cron.jobs["nightly-again"]
		l.cron.mu.Unlock()
		if known {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the Jobs' watch never told of nightly-again")
		}
		<-time.After(10 * time.Millisecond)
	}
	create(t, ctx, pods.Create, jobPod("again", "a1", "7", "nightly-again"))
	got.next(1)

	want := []seen{
		{Type: timeline.Added, Kind: "Pod", Name: "scheduled", Version: "4"},
		{Type: timeline.Added, Kind: "Pod", Name: "by-hand", Version: "5"},
		{Type: timeline.Added, Kind: "Pod", Name: "again", Version: "7"},
	}
	if diff := cmp.Diff(want, got.got); diff != "" {
		t.Errorf("items mismatch (-want +got):\n%s", diff)
	}
}

func TestScheduledName(t *testing.T) {
	for _, c := range []struct {
		job  string
		want bool
	}{{"nightly-29012345", true}, {"nightly-", false}, {"nightly-backup-29012345", false}, {"nightly-12a", false}, {"nightly", false}} {
		if got := scheduledName("nightly", c.job); got != c.want {
			t.Errorf("scheduledName(nightly, %s) = %v, want %v", c.job, got, c.want)
		}
	}
}
