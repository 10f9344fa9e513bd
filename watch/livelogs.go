package watch

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// startLogs starts what reads logs, as the options ask: the containers' (logs.go) and the
// kubelet's (nodelogs.go). Both send items into the queue after the pod items that name them,
// and warnings as a *WatchError: not fatal.
func (l *Live) startLogs(ctx context.Context) {
	if o := l.opts.Logs; o != nil {
		l.logs = newLogFollowers(ctx, l.client, *o, func(c *ContainerLog) { l.putItem(c) }, l.warner("logs"))
	}
	if o := l.opts.NodeLogs; o != nil {
		l.nodes = newNodeLogs(ctx, l.client.CoreV1().RESTClient(), *o, func(k *KubeletLog) { l.putItem(k) }, l.warner("the kubelet's log"))
	}
}

// podLogs hands a pod's item, already queued, to what reads logs.
func (l *Live) podLogs(t timeline.WatchType, p *corev1.Pod) {
	if l.logs != nil {
		l.logs.pod(t, p)
	}
	if l.nodes != nil {
		l.nodes.pod(t, p)
	}
}

// putItem stamps and queues an item sidecar-top made itself.
func (l *Live) putItem(obj runtime.Object) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.put(timeline.Added, obj)
}

// warner queues warnings about resource as watch errors.
func (l *Live) warner(resource string) func(error) {
	return func(err error) { l.q.put(entry{err: &WatchError{Resource: resource, Err: err}}) }
}
