package watch

import (
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

// logT0 is when the test containers write their lines.
var logT0 = time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)

// stamp is a line as the kubelet serves it with timestamps=true.
func stamp(ms int, text string) string {
	return logT0.Add(time.Duration(ms)*time.Millisecond).Format("2006-01-02T15:04:05.000000000Z07:00") + " " + text
}

func atMs(ms int) time.Time { return logT0.Add(time.Duration(ms) * time.Millisecond) }

// logServer is an API server that serves pods/log from a handler per container and run
// ("app" or "app/previous"), and notes each request's query.
type logServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string
	handlers map[string]http.HandlerFunc
}

func newLogServer(t *testing.T, handlers map[string]http.HandlerFunc) (*logServer, kubernetes.Interface) {
	t.Helper()
	s := &logServer{handlers: handlers}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		key := q.Get("container")
		if q.Get("previous") == "true" {
			key += "/previous"
		}
		s.mu.Lock()
		s.requests = append(s.requests, r.URL.Path+"?"+r.URL.RawQuery)
		h := s.handlers[key]
		s.mu.Unlock()
		if h == nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"pods \"p\" not found","reason":"NotFound","code":404}`)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	c, err := kubernetes.NewForConfig(&rest.Config{Host: s.URL})
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

func (s *logServer) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// serve writes lines and ends the stream.
func serve(lines ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		for _, l := range lines {
			fmt.Fprint(w, l)
		}
	}
}

// logSink collects what followers send.
type logSink struct {
	mu    sync.Mutex
	items []*ContainerLog
	warns []string
}

func (s *logSink) put(c *ContainerLog) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items = append(s.items, c)
}

func (s *logSink) warn(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.warns = append(s.warns, err.Error())
}

// waitFor waits until cond holds of the sink, and fails the test after a long while.
func (s *logSink) waitFor(t *testing.T, what string, cond func(*logSink) bool) {
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

// ended reports whether the run with this container ID sent its end.
func (s *logSink) ended(id string) bool {
	for _, c := range s.items {
		if c.ContainerID == id && c.End {
			return true
		}
	}
	return false
}

// runLog is what the sink got of one run: its lines, in order, and how its batches said it
// began and ended.
type runLog struct {
	Attempt   int32
	FromStart []bool // of each batch
	Ends      []bool
	Lines     []LogLine
}

func (s *logSink) run(id string) runLog {
	s.mu.Lock()
	defer s.mu.Unlock()
	var r runLog
	for _, c := range s.items {
		if c.ContainerID != id {
			continue
		}
		r.Attempt = c.Attempt
		r.FromStart, r.Ends = append(r.FromStart, c.FromStart), append(r.Ends, c.End)
		r.Lines = append(r.Lines, c.Lines...)
	}
	return r
}

// runningPod is pod p with containers running, each with its container ID.
func runningPod(ids map[string]string) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "uid-p"}}
	for _, name := range []string{"app", "side", "third"} {
		if id, ok := ids[name]; ok {
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{Name: name, ContainerID: id,
				State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(logT0)}}})
		}
	}
	return p
}

func newTestFollowers(t *testing.T, c kubernetes.Interface, opts LogOptions) (*logFollowers, *logSink) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	t.Cleanup(cancel)
	sink := &logSink{}
	f := newLogFollowers(ctx, c, opts, sink.put, sink.warn)
	f.retryWait = time.Millisecond
	return f, sink
}

func mustMarks(t *testing.T, specs ...string) Marks {
	t.Helper()
	var rules []MarkRule
	for _, s := range specs {
		r, err := ParseMark(s)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r)
	}
	return NewMarks(rules...)
}

// hostileLog is a run's log with what a log may hold: a 1 MB line, binary output, a line
// without a stamp, and a last line without a newline.
var hostileLog = []string{
	stamp(1, "starting\n"),
	stamp(2, "listening on :8080\n"),
	stamp(3, strings.Repeat("x", 1<<20)+"\n"),
	stamp(4, "\x00\xff\xfebinary\n"),
	"no stamp here\n",
	stamp(5, "caught SIGTERM\n"),
	stamp(6, "bye"),
}

func TestFollowLog(t *testing.T) {
	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprintf("keepText=%v", keep), func(t *testing.T) {
			srv, c := newLogServer(t, map[string]http.HandlerFunc{"app": serve(hostileLog...)})
			f, sink := newTestFollowers(t, c, LogOptions{KeepText: keep,
				Marks: mustMarks(t, "app:listening=listening on", "*:sigterm=SIGTERM", "side:never=starting")})
			f.pod(timeline.Added, runningPod(map[string]string{"app": "containerd://a1"}))
			sink.waitFor(t, "the end of the log", func(s *logSink) bool { return s.ended("containerd://a1") })

			got := sink.run("containerd://a1")
			text := func(s string) string {
				if keep {
					return s
				}
				return ""
			}
			want := []LogLine{
				{At: atMs(1), Len: 8, Text: text("starting")},
				{At: atMs(2), Len: 18, Mark: "listening", Text: "listening on :8080"},
				{At: atMs(3), Len: 1 << 20, Text: text(strings.Repeat("x", MaxLogText))},
				{At: atMs(4), Len: 9, Text: text("\x00\xff\xfebinary")},
				{At: atMs(5), Len: 14, Mark: "sigterm", Text: "caught SIGTERM"},
				{At: atMs(6), Len: 3, Text: text("bye")},
			}
			if diff := cmp.Diff(got.Lines, want); diff != "" {
				t.Errorf("lines (-got +want):\n%s", diff)
			}
			if got.Attempt != 0 || !got.FromStart[0] || !got.Ends[len(got.Ends)-1] {
				t.Errorf("attempt %d, fromStart %v, ends %v: want 0, the first batch from the start, the last the end", got.Attempt, got.FromStart, got.Ends)
			}
			for i := 1; i < len(got.FromStart); i++ {
				if got.FromStart[i] || got.Ends[i-1] {
					t.Errorf("batch %d of %d: fromStart %v, the one before ended %v", i, len(got.FromStart), got.FromStart[i], got.Ends[i-1])
				}
			}
			wantWarn := []string{"pod p container app run 0: a log line without a timestamp, not used"}
			if diff := cmp.Diff(sink.warns, wantWarn); diff != "" {
				t.Errorf("warnings (-got +want):\n%s", diff)
			}
			wantReq := []string{"/api/v1/namespaces/ns/pods/p/log?container=app&follow=true&timestamps=true"}
			if diff := cmp.Diff(srv.seen(), wantReq); diff != "" {
				t.Errorf("requests (-got +want):\n%s", diff)
			}
		})
	}
}

// A restart seen late: the run before the current one is read whole (previous=true), the
// current one followed; each run is read once however often the pod is seen.
func TestFollowLateRestart(t *testing.T) {
	srv, c := newLogServer(t, map[string]http.HandlerFunc{
		"app/previous": serve(stamp(10, "run 0\n"), stamp(5000, "run 0 exits\n")),
		"app":          serve(stamp(15000, "run 1\n")),
	})
	f, sink := newTestFollowers(t, c, LogOptions{})
	p := runningPod(map[string]string{"app": "containerd://a2"})
	cs := &p.Status.ContainerStatuses[0]
	cs.RestartCount = 1
	cs.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ContainerID: "containerd://a1",
		StartedAt: metav1.NewTime(logT0), FinishedAt: metav1.NewTime(logT0.Add(5 * time.Second))}
	f.pod(timeline.Added, p)
	f.pod(timeline.Modified, p)
	sink.waitFor(t, "both runs' ends", func(s *logSink) bool { return s.ended("containerd://a1") && s.ended("containerd://a2") })

	got := map[string]runLog{"a1": sink.run("containerd://a1"), "a2": sink.run("containerd://a2")}
	want := map[string]runLog{
		"a1": {Attempt: 0, FromStart: []bool{true}, Ends: []bool{true}, Lines: []LogLine{{At: atMs(10), Len: 5}, {At: atMs(5000), Len: 11}}},
		"a2": {Attempt: 1, FromStart: []bool{true}, Ends: []bool{true}, Lines: []LogLine{{At: atMs(15000), Len: 5}}},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("runs (-got +want):\n%s", diff)
	}
	reqs := srv.seen()
	if len(reqs) != 2 || !strings.Contains(strings.Join(reqs, " "), "container=app&previous=true&timestamps=true") {
		t.Errorf("requests %q: want one for each run, the first run's with previous=true", reqs)
	}
}

// A stream that breaks is asked for again from the second of the last line read; the lines
// read twice are counted once.
func TestFollowRetry(t *testing.T) {
	var mu sync.Mutex
	tries := 0
	var since string
	srv, c := newLogServer(t, map[string]http.HandlerFunc{"app": func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		tries++
		n := tries
		mu.Unlock()
		if n == 1 {
			fmt.Fprint(w, stamp(1100, "one\n"), stamp(1200, "two\n"), stamp(1200, "two again\n"))
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // the connection breaks mid-stream
		}
		mu.Lock()
		since = r.URL.Query().Get("sinceTime")
		mu.Unlock()
		fmt.Fprint(w, stamp(1100, "one\n"), stamp(1200, "two\n"), stamp(1200, "two again\n"), stamp(1200, "two, third\n"), stamp(1300, "three\n"))
	}})
	f, sink := newTestFollowers(t, c, LogOptions{})
	f.pod(timeline.Added, runningPod(map[string]string{"app": "containerd://a1"}))
	sink.waitFor(t, "the end of the log", func(s *logSink) bool { return s.ended("containerd://a1") })

	want := []LogLine{{At: atMs(1100), Len: 3}, {At: atMs(1200), Len: 3}, {At: atMs(1200), Len: 9}, {At: atMs(1200), Len: 10}, {At: atMs(1300), Len: 5}}
	if diff := cmp.Diff(sink.run("containerd://a1").Lines, want); diff != "" {
		t.Errorf("lines (-got +want):\n%s", diff)
	}
	if since != "2026-12-02T08:00:01Z" || len(srv.seen()) != 2 {
		t.Errorf("asked again since %q, %d requests; want 2026-12-02T08:00:01Z, 2", since, len(srv.seen()))
	}
	if len(sink.warns) != 1 || !strings.HasPrefix(sink.warns[0], "pod p container app run 0: reading the log: ") {
		t.Errorf("warnings %q: want one saying the stream broke", sink.warns)
	}
}

// pods/log forbidden: said once, and nothing more is asked for.
func TestFollowForbidden(t *testing.T) {
	forbidden := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"pods \"p\" is forbidden: User \"u\" cannot get resource \"pods/log\"","reason":"Forbidden","code":403}`)
	}
	srv, c := newLogServer(t, map[string]http.HandlerFunc{"app": forbidden, "side": forbidden})
	f, sink := newTestFollowers(t, c, LogOptions{})
	f.pod(timeline.Added, runningPod(map[string]string{"app": "containerd://a1"}))
	sink.waitFor(t, "the warning", func(s *logSink) bool { return len(s.warns) > 0 })
	f.pod(timeline.Modified, runningPod(map[string]string{"app": "containerd://a1", "side": "containerd://s1"}))

	want := []string{`not allowed to read the containers' logs, so they are not used: pods "p" is forbidden: User "u" cannot get resource "pods/log"`}
	if diff := cmp.Diff(sink.warns, want); diff != "" {
		t.Errorf("warnings (-got +want):\n%s", diff)
	}
	if len(srv.seen()) != 1 || len(sink.items) != 0 {
		t.Errorf("requests %q, items %d: want 1 request, no item", srv.seen(), len(sink.items))
	}
}

// A run that has ended, whose log holds lines stamped well after its end: the kubelet served
// a newer run's log. Those lines are not used.
func TestFollowNewerRun(t *testing.T) {
	_, c := newLogServer(t, map[string]http.HandlerFunc{"app": serve(stamp(1000, "mine\n"), stamp(20000, "a newer run's\n"))})
	f, sink := newTestFollowers(t, c, LogOptions{})
	p := runningPod(map[string]string{"app": "containerd://a1"})
	p.Status.ContainerStatuses[0].State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
		ContainerID: "containerd://a1", StartedAt: metav1.NewTime(logT0), FinishedAt: metav1.NewTime(logT0.Add(5 * time.Second))}}
	f.pod(timeline.Added, p)
	sink.waitFor(t, "the warning", func(s *logSink) bool { return len(s.warns) > 0 })
	sink.waitFor(t, "the lines before", func(s *logSink) bool { return len(s.items) > 0 })

	got := sink.run("containerd://a1")
	if diff := cmp.Diff(got.Lines, []LogLine{{At: atMs(1000), Len: 4}}); diff != "" || got.Ends[len(got.Ends)-1] {
		t.Errorf("lines (-got +want):\n%s\nends %v: the log is not over as far as anyone knows", diff, got.Ends)
	}
	want := []string{"pod p container app run 0: the log holds lines stamped after the run ended: a newer run's, not used"}
	if diff := cmp.Diff(sink.warns, want); diff != "" {
		t.Errorf("warnings (-got +want):\n%s", diff)
	}
}

// With a cap of one stream, the second run's log waits until the first ends, and that is said
// once.
func TestFollowMaxStreams(t *testing.T) {
	release := make(chan struct{})
	srv, c := newLogServer(t, map[string]http.HandlerFunc{
		"app": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, stamp(1, "app\n"))
			w.(http.Flusher).Flush()
			<-release
		},
		"side": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, stamp(1, "side\n"))
			w.(http.Flusher).Flush()
			<-release
		},
	})
	f, sink := newTestFollowers(t, c, LogOptions{MaxStreams: 1})
	f.pod(timeline.Added, runningPod(map[string]string{"app": "containerd://a1", "side": "containerd://s1"}))
	sink.waitFor(t, "the notice", func(s *logSink) bool { return len(s.warns) > 0 })
	sink.waitFor(t, "the first log's line", func(s *logSink) bool { return len(s.items) > 0 })
	if n := len(srv.seen()); n != 1 {
		t.Errorf("%d streams open, want 1", n)
	}
	close(release)
	sink.waitFor(t, "both ends", func(s *logSink) bool { return s.ended("containerd://a1") && s.ended("containerd://s1") })
	want := []string{"1 logs are being read, the most at once (--logs-max-streams): the logs of later runs wait until one ends"}
	if diff := cmp.Diff(sink.warns, want); diff != "" {
		t.Errorf("warnings (-got +want):\n%s", diff)
	}
}

// 10,000 lines as fast as they come: every one is counted, in batches of at most FlushLines,
// and only the marked ones keep their text.
func TestFollowManyLines(t *testing.T) {
	var b strings.Builder
	for i := range 10000 {
		text := fmt.Sprintf("line %d", i)
		if i%1000 == 999 {
			text = "tick " + text
		}
		b.WriteString(stamp(i/10, text+"\n"))
	}
	_, c := newLogServer(t, map[string]http.HandlerFunc{"app": serve(b.String())})
	f, sink := newTestFollowers(t, c, LogOptions{Marks: mustMarks(t, "app:tick=^tick"), FlushLines: 500})
	f.pod(timeline.Added, runningPod(map[string]string{"app": "containerd://a1"}))
	sink.waitFor(t, "the end", func(s *logSink) bool { return s.ended("containerd://a1") })

	got := sink.run("containerd://a1")
	texts := 0
	for i, l := range got.Lines {
		if !l.At.Equal(atMs(i/10)) || (l.Text != "") != (i%1000 == 999) {
			t.Fatalf("line %d: %+v", i, l)
		}
		if l.Text != "" {
			texts++
		}
	}
	if len(got.Lines) != 10000 || texts != 10 {
		t.Errorf("%d lines, %d with text; want 10000, 10", len(got.Lines), texts)
	}
	if len(sink.warns) != 0 {
		t.Errorf("warnings %q", sink.warns)
	}
}

// A mark that matches every line marks the first MaxMarkedLines, and says so once.
func TestFollowMarkCap(t *testing.T) {
	var b strings.Builder
	for i := range 100 {
		b.WriteString(stamp(i, fmt.Sprintf("line %d\n", i)))
	}
	_, c := newLogServer(t, map[string]http.HandlerFunc{"app": serve(b.String())})
	f, sink := newTestFollowers(t, c, LogOptions{Marks: mustMarks(t, "app:any=line")})
	f.pod(timeline.Added, runningPod(map[string]string{"app": "containerd://a1"}))
	sink.waitFor(t, "the end", func(s *logSink) bool { return s.ended("containerd://a1") })
	marked := 0
	for _, l := range sink.run("containerd://a1").Lines {
		if l.Mark != "" {
			marked++
		}
	}
	want := []string{`pod p container app run 0: mark "any" matched more than 16 lines; later ones are not milestones`}
	if diff := cmp.Diff(sink.warns, want); diff != "" || marked != MaxMarkedLines {
		t.Errorf("%d lines marked; warnings (-got +want):\n%s", marked, diff)
	}
	for _, c := range sink.items {
		if len(c.Lines) > 500 {
			t.Errorf("a batch of %d lines, more than FlushLines", len(c.Lines))
		}
	}
}

// A pod deleted while its log is followed: the stream is dropped some time after, the lines
// read are kept, and the log is not said to be over (the run's exit is not bounded by it).
func TestFollowPodDeleted(t *testing.T) {
	dropped := make(chan struct{})
	srv, c := newLogServer(t, map[string]http.HandlerFunc{"app": func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, stamp(1, "one\n"), stamp(2, "two\n"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		close(dropped)
	}})
	f, sink := newTestFollowers(t, c, LogOptions{})
	f.goneGrace = time.Millisecond
	p := runningPod(map[string]string{"app": "containerd://a1"})
	f.pod(timeline.Added, p)
	sink.waitFor(t, "the lines", func(s *logSink) bool { return len(s.items) > 0 && len(s.items[0].Lines) == 2 })
	f.pod(timeline.Deleted, p)
	select {
	case <-dropped:
	case <-time.After(liveTimeout):
		t.Fatal("the stream of a deleted pod was never dropped")
	}
	f.pod(timeline.Modified, runningPod(map[string]string{"app": "containerd://a1", "side": "containerd://s1"}))
	got := sink.run("containerd://a1")
	if len(got.Lines) != 2 || got.Ends[len(got.Ends)-1] || len(sink.warns) != 0 {
		t.Errorf("got %+v, warnings %q; want the two lines, no end, no warning", got, sink.warns)
	}
	if n := len(srv.seen()); n != 1 {
		t.Errorf("%d requests: a deleted pod's new run was asked for", n)
	}
}

// TestReadBeforeRetry: after a retry, which asks from the last stamp's whole second, the lines
// stamped before the last stamp are skipped, and as many stamped with it as were read; the
// first line past them ends the skipping. Before any retry nothing is skipped.
func TestReadBeforeRetry(t *testing.T) {
	last := time.Date(2026, 1, 2, 3, 4, 5, 500, time.UTC)
	tests := []struct {
		name       string
		nread      int
		dedupe     int
		at         time.Time
		wantSkip   bool
		wantDedupe int
	}{
		{name: "no retry", nread: 3, dedupe: -1, at: last.Add(-time.Second), wantDedupe: -1},
		{name: "nothing read before the retry", nread: 0, dedupe: 2, at: last.Add(-time.Second), wantDedupe: 2},
		{name: "earlier than the last stamp", nread: 3, dedupe: 2, at: last.Add(-time.Millisecond), wantSkip: true, wantDedupe: 2},
		{name: "the last stamp, read before", nread: 3, dedupe: 2, at: last, wantSkip: true, wantDedupe: 1},
		{name: "the last stamp, past those read", nread: 3, dedupe: 0, at: last, wantDedupe: -1},
		{name: "later than the last stamp", nread: 3, dedupe: 2, at: last.Add(time.Nanosecond), wantDedupe: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &logReader{lastAt: last, nread: tt.nread, dedupe: tt.dedupe}
			if got := r.readBeforeRetry(tt.at); got != tt.wantSkip || r.dedupe != tt.wantDedupe {
				t.Errorf("readBeforeRetry() = %v, dedupe %d; want %v, dedupe %d", got, r.dedupe, tt.wantSkip, tt.wantDedupe)
			}
		})
	}
}

// TestNoteRead: the count of lines stamped with the latest stamp, which a retry skips.
func TestNoteRead(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := &logReader{}
	for _, at := range []time.Time{t0, t0, t0.Add(time.Second), t0.Add(time.Second), t0.Add(time.Second), t0} {
		r.noteRead(at)
	}
	if !r.lastAt.Equal(t0.Add(time.Second)) || r.atLast != 3 || r.nread != 6 {
		t.Errorf("after 6 lines: lastAt %v, atLast %d, nread %d; want %v, 3, 6", r.lastAt, r.atLast, r.nread, t0.Add(time.Second))
	}
}
