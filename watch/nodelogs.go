package watch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// NodeLogOptions say how the kubelet's log is read.
type NodeLogOptions struct {
	// Interval is how often each node's log is asked for (zero: DefaultNodeLogInterval).
	Interval time.Duration
}

// DefaultNodeLogInterval is how often the kubelet's log is asked for by default.
const DefaultNodeLogInterval = 2 * time.Second

// errNodeLogsUnavailable wraps the reasons a node's kubelet log cannot be read at all.
var errNodeLogsUnavailable = errors.New("unavailable")

// nodeLogs reads, on each node that runs one of the target's pods, the kubelet's own log for
// the lines that say it stops a container (node log query:
// GET /api/v1/nodes/NODE/proxy/logs/?query=kubelet&pattern=...), and sends those of the
// target's pods as KubeletLog items through put. A node whose log cannot be read is said once
// and not asked again.
type nodeLogs struct {
	httpc *http.Client // nil: the client cannot make raw requests (a fake)
	rest  rest.Interface
	opts  NodeLogOptions
	put   func(*KubeletLog)
	warn  func(error)
	ctx   context.Context

	mu    sync.Mutex
	uids  map[types.UID]string // the target's pods, by UID: their node
	live  map[string]int       // pods not deleted, per node
	nodes map[string]context.CancelFunc
	sent  map[string]bool // container IDs whose kill line was sent
}

func newNodeLogs(ctx context.Context, ri rest.Interface, opts NodeLogOptions, put func(*KubeletLog), warn func(error)) *nodeLogs {
	if opts.Interval <= 0 {
		opts.Interval = DefaultNodeLogInterval
	}
	n := &nodeLogs{rest: ri, opts: opts, put: put, warn: warn, ctx: ctx, uids: map[types.UID]string{},
		live: map[string]int{}, nodes: map[string]context.CancelFunc{}, sent: map[string]bool{}}
	if rc, ok := ri.(*rest.RESTClient); ok && rc != nil && rc.Client != nil {
		n.httpc = rc.Client
	}
	return n
}

// pod takes a pod's item: it starts reading the log of the pod's node, and stops some time
// after the node runs none of the target's pods. It never blocks.
func (n *nodeLogs) pod(t timeline.WatchType, p *corev1.Pod) {
	node := p.Spec.NodeName
	if node == "" {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	_, known := n.uids[p.UID]
	switch {
	case t == timeline.Deleted && known && n.uids[p.UID] != "":
		n.uids[p.UID] = "" // still the target's: its kill lines may come in the next polls
		n.live[node]--
		if n.live[node] == 0 {
			time.AfterFunc(podGoneGrace, func() { n.idle(node) })
		}
	case t != timeline.Deleted && !known:
		n.uids[p.UID] = node
		n.live[node]++
		if _, ok := n.nodes[node]; !ok {
			ctx, cancel := context.WithCancel(n.ctx)
			n.nodes[node] = cancel
			go n.poll(ctx, node)
		}
	}
}

// idle stops reading a node that has run none of the target's pods for a while.
func (n *nodeLogs) idle(node string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if cancel, ok := n.nodes[node]; ok && n.live[node] == 0 {
		cancel()
		delete(n.nodes, node)
	}
}

// poll asks for a node's kubelet log every Interval until ctx ends or the log is unavailable.
func (n *nodeLogs) poll(ctx context.Context, node string) {
	if n.httpc == nil {
		n.warn(fmt.Errorf("node %s: not read: this client cannot make the node log query", node))
		return
	}
	src := &kubeletSource{n: n, node: node}
	failures := 0
	for {
		err := src.read(ctx)
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, errNodeLogsUnavailable):
			n.warn(fmt.Errorf("node %s: %w", node, err))
			return
		case err != nil:
			if failures++; failures == 1 || failures == 10 {
				n.warn(fmt.Errorf("node %s: %w (asking again)", node, err))
			}
		default:
			failures = 0
		}
		if !sleep(ctx, n.opts.Interval) {
			return
		}
	}
}

// take sends a kill line if it is of one of the target's pods and not sent before.
func (n *nodeLogs) take(node string, k kubeletKill) {
	n.mu.Lock()
	_, ours := n.uids[types.UID(k.PodUID)]
	if !ours || n.sent[k.ContainerID] {
		n.mu.Unlock()
		return
	}
	n.sent[k.ContainerID] = true
	n.mu.Unlock()
	out := NewKubeletLog()
	out.Node, out.At, out.Namespace, out.Pod, out.PodUID = node, k.At, k.Namespace, k.Pod, k.PodUID
	out.Container, out.ContainerID, out.GracePeriod = k.Container, k.ContainerID, k.GracePeriod
	n.put(out)
}
