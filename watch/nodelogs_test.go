package watch

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// killAt is when the test kubelet stops the envoy container.
var killAt = time.Date(2026, 12, 2, 8, 0, 9, 512345000, time.UTC)

// Kill lines as the kubelet v1.37 writes them at -v=2, in klog's text format and in JSON, and
// as the node log query serves them from the journal (journalctl --utc -o short-precise).
const (
	klogKill     = `I1202 08:00:09.512345    2399 kuberuntime_container.go:912] "Killing container with a grace period" pod="ns/p" podUID="uid-p" containerName="envoy" containerID="containerd://e1" gracePeriod=30`
	journalKill  = `Dec 02 08:00:09.512398 vm kubelet[2399]: ` + klogKill
	otherKill    = `Dec 02 08:00:10.000100 vm kubelet[2399]: I1202 08:00:10.000001    2399 kuberuntime_container.go:912] "Killing container with a grace period" pod="other/q" podUID="uid-q" containerName="app" containerID="containerd://q1" gracePeriod=30`
	overrideKill = `Dec 02 08:00:11.000100 vm kubelet[2399]: I1202 08:00:11.000001    2399 kuberuntime_container.go:891] "Killing container with a grace period override" pod="ns/p" podUID="uid-p" containerName="app" containerID="containerd://a1" gracePeriod=2`
)

var wantKill = kubeletKill{At: killAt, Namespace: "ns", Pod: "p", PodUID: "uid-p", Container: "envoy",
	ContainerID: "containerd://e1", GracePeriod: 30}

func TestParseKubeletKill(t *testing.T) {
	jsonKill := fmt.Sprintf(`{"ts":%.3f,"caller":"kuberuntime/kuberuntime_container.go:912","msg":"Killing container with a grace period","v":2,"pod":{"name":"p","namespace":"ns"},"podUID":"uid-p","containerName":"envoy","containerID":"containerd://e1","gracePeriod":30}`,
		float64(killAt.UnixNano())/1e6)
	cet := strings.Replace(journalKill, "I1202 08:00:09", "I1202 09:00:09", 1) // a kubelet in UTC+1
	newYear := strings.NewReplacer("Dec 02", "Dec 31", "I1202", "I1231").Replace(journalKill)
	ref := killAt.Add(time.Minute)
	for _, tc := range []struct {
		name, line string
		ref        time.Time
		offset     time.Duration
		want       kubeletKill
		ok         bool
	}{
		{name: "journal", line: journalKill, ref: ref, want: wantKill, ok: true},
		{name: "file", line: klogKill, ref: ref, want: wantKill, ok: true},
		{name: "file, kubelet in UTC+1", line: strings.Replace(klogKill, "08:00:09", "09:00:09", 1), ref: ref, offset: time.Hour, want: wantKill, ok: true},
		{name: "journal, kubelet in UTC+1", line: cet, ref: ref, want: wantKill, ok: true},
		{name: "json", line: jsonKill, ref: ref, want: wantKill, ok: true},
		{name: "journal json", line: "Dec 02 08:00:09.512398 vm kubelet[2399]: " + jsonKill, ref: ref, want: wantKill, ok: true},
		{name: "last year's", line: newYear, ref: time.Date(2027, 1, 1, 0, 0, 5, 0, time.UTC),
			want: func() kubeletKill {
				k := wantKill
				k.At = time.Date(2026, 12, 31, 8, 0, 9, 512345000, time.UTC)
				return k
			}(), ok: true},
		{name: "override", line: overrideKill, ref: ref},
		{name: "other message", line: `I1202 08:00:09.512345    2399 kubelet.go:2400] "SyncLoop DELETE" source="api" pods=["ns/p"]`, ref: ref},
		{name: "no container ID", line: strings.Replace(klogKill, ` containerID="containerd://e1"`, "", 1), ref: ref},
		{name: "cut short", line: klogKill[:len(klogKill)-60], ref: ref},
		{name: "no header", line: klogKill[40:], ref: ref},
		{name: "escaped", line: strings.Replace(klogKill, `pod="ns/p"`, `pod="ns/p\"x\u00e9"`, 1), ref: ref,
			want: func() kubeletKill { k := wantKill; k.Pod = `p"xé`; return k }(), ok: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := parseKubeletKill([]byte(tc.line), tc.ref, tc.offset)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, tc.ok, got)
			}
			if !ok {
				return
			}
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
		})
	}
}

// nodeServer is an API server's node proxy to one kubelet's /logs/: a query handler, and the
// files of the node's /var/log, served as the kubelet serves them (with Range requests).
type nodeServer struct {
	*httptest.Server
	mu      sync.Mutex
	query   http.HandlerFunc // nil: the query is ignored and /var/log/ listed
	files   map[string][]byte
	modTime time.Time
	ranges  []string // the Range of each file request
}

func newNodeServer(t *testing.T) (*nodeServer, kubernetes.Interface) {
	t.Helper()
	s := &nodeServer{files: map[string][]byte{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutPrefix(r.URL.Path, "/api/v1/nodes/n1/proxy/logs/")
		if !ok {
			http.NotFound(w, r)
			return
		}
		s.mu.Lock()
		query := s.query
		data, found := s.files[name]
		mod := s.modTime
		if name != "" {
			s.ranges = append(s.ranges, name+" "+r.Header.Get("Range"))
		}
		s.mu.Unlock()
		switch {
		case name == "" && r.URL.Query().Has("query") && query != nil:
			query(w, r)
		case name == "":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, "<!doctype html>\n<pre>\n<a href=\"pods/\">pods/</a>\n</pre>\n")
		case !found:
			http.NotFound(w, r)
		default:
			http.ServeContent(w, r, name, mod, bytes.NewReader(data))
		}
	}))
	t.Cleanup(s.Close)
	c, err := kubernetes.NewForConfig(&rest.Config{Host: s.URL})
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

// kubeletSink collects what nodeLogs sends.
type kubeletSink struct {
	mu    sync.Mutex
	items []*KubeletLog
	warns []string
}

func (s *kubeletSink) put(k *KubeletLog) { s.mu.Lock(); s.items = append(s.items, k); s.mu.Unlock() }
func (s *kubeletSink) warn(err error) {
	s.mu.Lock()
	s.warns = append(s.warns, err.Error())
	s.mu.Unlock()
}

func (s *kubeletSink) waitFor(t *testing.T, what string, cond func(*kubeletSink) bool) {
	t.Helper()
	deadline := time.Now().Add(liveTimeout)
	for {
		s.mu.Lock()
		ok := cond(s)
		s.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s; items %+v, warnings %q", what, s.items, s.warns)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func startNodeLogs(t *testing.T, c kubernetes.Interface) (*nodeLogs, *kubeletSink) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	t.Cleanup(cancel)
	sink := &kubeletSink{}
	n := newNodeLogs(ctx, c.CoreV1().RESTClient(), NodeLogOptions{Interval: 5 * time.Millisecond}, sink.put, sink.warn)
	n.pod(timeline.Added, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "uid-p"},
		Spec: corev1.PodSpec{NodeName: "n1"}})
	return n, sink
}

func wantKubeletLog() *KubeletLog {
	k := NewKubeletLog()
	k.Node, k.At, k.Namespace, k.Pod, k.PodUID = "n1", killAt, "ns", "p", "uid-p"
	k.Container, k.ContainerID, k.GracePeriod = "envoy", "containerd://e1", 30
	return k
}

// The journal answers the query: the target's pod's kill line is sent, once however often it
// is read; another pod's, and the override line, are not.
func TestNodeLogsQuery(t *testing.T) {
	srv, c := newNodeServer(t)
	var mu sync.Mutex
	var queries []string
	srv.query = func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		queries = append(queries, r.URL.RawQuery)
		mu.Unlock()
		fmt.Fprintln(w, journalKill)
		fmt.Fprintln(w, otherKill)
		fmt.Fprintln(w, overrideKill)
	}
	_, sink := startNodeLogs(t, c)
	sink.waitFor(t, "a few polls", func(*kubeletSink) bool { mu.Lock(); defer mu.Unlock(); return len(queries) >= 3 })
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if diff := cmp.Diff(sink.items, []*KubeletLog{wantKubeletLog()}); diff != "" || len(sink.warns) != 0 {
		t.Errorf("items (-got +want):\n%s\nwarnings %q", diff, sink.warns)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := "pattern=Killing+container+with+a+grace+period&query=kubelet&tailLines=1000"; queries[0] != want {
		t.Errorf("query %q, want %q", queries[0], want)
	}
}

// Query mode off (the kubelet lists /var/log/): the file is read instead, its end first, then
// what it gains, by Range; the kubelet's time zone comes from the file's mtime.
func TestNodeLogsFile(t *testing.T) {
	srv, c := newNodeServer(t)
	filler := strings.Repeat("I1202 06:59:00.000000    2399 kubelet.go:1] \"filler\"\n", 200000) // over 8 MiB
	cet := strings.Replace(klogKill, "I1202 08:00:09", "I1202 09:00:09", 1)                      // a kubelet in UTC+1
	srv.files["kubelet.log"] = []byte(filler + cet + "\n")
	srv.modTime = killAt.Add(100 * time.Millisecond)
	_, sink := startNodeLogs(t, c)
	sink.waitFor(t, "the first kill line", func(s *kubeletSink) bool { return len(s.items) == 1 })

	later := strings.NewReplacer("08:00:09", "09:00:20", `containerName="envoy"`, `containerName="app"`,
		"containerd://e1", "containerd://a1").Replace(klogKill)
	srv.mu.Lock()
	size := len(srv.files["kubelet.log"])
	srv.files["kubelet.log"] = append(srv.files["kubelet.log"], later+"\n"+"I1202 09:00:20.6"...) // and a partial line
	srv.modTime = killAt.Add(11 * time.Second)
	srv.mu.Unlock()
	sink.waitFor(t, "the second kill line", func(s *kubeletSink) bool { return len(s.items) == 2 })

	second := wantKubeletLog()
	second.At, second.Container, second.ContainerID = time.Date(2026, 12, 2, 8, 0, 20, 512345000, time.UTC), "app", "containerd://a1"
	sink.mu.Lock()
	if diff := cmp.Diff(sink.items, []*KubeletLog{wantKubeletLog(), second}); diff != "" || len(sink.warns) != 0 {
		t.Errorf("items (-got +want):\n%s\nwarnings %q", diff, sink.warns)
	}
	sink.mu.Unlock()
	srv.mu.Lock()
	defer srv.mu.Unlock()
	want := fmt.Sprintf("kubelet.log bytes=%d-", size)
	if srv.ranges[0] != "kubelet.log bytes=-8388608" || !containsString(srv.ranges, want) {
		t.Errorf("ranges %q: want the last 8 MiB first, then from %d", srv.ranges[:min(len(srv.ranges), 4)], size)
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// What cannot be read is said once, in one line, and not asked again.
func TestNodeLogsUnavailable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		query http.HandlerFunc
		want  string
	}{
		{name: "file without a file", query: func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "\noptions present and query resolved to log files for [kubelet]\ntry without specifying options\n")
		}, want: "node n1: unavailable: the node log query is off (kubelet setting enableSystemLogQuery, feature NodeLogQuery) and the node's /var/log has no kubelet.log"},
		{name: "query off, no file", want: "node n1: unavailable: the node log query is off (kubelet setting enableSystemLogQuery, feature NodeLogQuery) and the node's /var/log has no kubelet.log"},
		{name: "forbidden", query: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"nodes \"n1\" is forbidden: User \"u\" cannot get resource \"nodes/proxy\"","reason":"Forbidden","code":403}`)
		}, want: `node n1: unavailable: forbidden (reading it needs get on nodes/proxy): nodes "n1" is forbidden: User "u" cannot get resource "nodes/proxy"`},
		{name: "no journal", query: func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "\nerror: journal output not available\n")
		}, want: "node n1: unavailable: the kubelet cannot read the node's journal"},
		{name: "loopback node", query: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"address not allowed","reason":"BadRequest","code":400}`)
		}, want: "node n1: unavailable: the API server will not proxy to the node's address (loopback or link-local): address not allowed"},
		{name: "endpoint off", query: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "logs endpoint is disabled.", http.StatusMethodNotAllowed)
		}, want: "node n1: unavailable: the kubelet's logs endpoint is disabled (kubelet setting enableSystemLogHandler): logs endpoint is disabled."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, c := newNodeServer(t)
			srv.query = tc.query
			_, sink := startNodeLogs(t, c)
			sink.waitFor(t, "the warning", func(s *kubeletSink) bool { return len(s.warns) > 0 })
			time.Sleep(20 * time.Millisecond) // several intervals: nothing more is said
			sink.mu.Lock()
			defer sink.mu.Unlock()
			if diff := cmp.Diff(sink.warns, []string{tc.want}); diff != "" || len(sink.items) != 0 {
				t.Errorf("warnings (-got +want):\n%s\nitems %+v", diff, sink.items)
			}
		})
	}
}

// A client that cannot make raw requests (the fake clientset) says so once.
func TestNodeLogsFakeClient(t *testing.T) {
	_, sink := startNodeLogs(t, newFakeCluster())
	sink.waitFor(t, "the warning", func(s *kubeletSink) bool { return len(s.warns) > 0 })
	if want := []string{"node n1: not read: this client cannot make the node log query"}; !cmp.Equal(sink.warns, want) {
		t.Errorf("warnings %q, want %q", sink.warns, want)
	}
}
