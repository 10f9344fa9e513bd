package agent

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/sidecar-top/sidecar-top/timeline"
)

func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	b, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, strings.TrimSpace(string(b))
}

// TestReadyz: 503 until the first list is in, then leader or standby as the election says.
func TestReadyz(t *testing.T) {
	a := New(Config{MaxOwners: 10, Log: quiet(t)}, NewMetrics("test"))
	h := Handler(a)
	if code, body := get(t, h, "/healthz"); code != 200 || body != "ok" {
		t.Errorf("/healthz: %d %q", code, body)
	}
	if code, _ := get(t, h, "/readyz"); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz before the first list: %d, want 503", code)
	}
	a.ready.Store(true)
	if code, body := get(t, h, "/readyz"); code != 200 || body != "standby" {
		t.Errorf("/readyz standing by: %d %q", code, body)
	}
	a.SetLeader(true)
	if code, body := get(t, h, "/readyz"); code != 200 || body != "leader" {
		t.Errorf("/readyz leading: %d %q", code, body)
	}
	_, body := get(t, h, "/metrics")
	for _, want := range []string{"sidecar_top_leader 1", `sidecar_top_build_info{goversion="go`, "go_goroutines", "process_start_time_seconds"} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics has no %q", want)
		}
	}
}

// hostilePod is a final pod whose names are made to break what prints them.
func hostilePod(ns, owner, container string) *timeline.Pod {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return &timeline.Pod{
		Namespace: ns, Name: "p", UID: "u-" + ns, Created: at, Phase: "Succeeded", Deleted: true,
		Owner:      &timeline.OwnerRef{Kind: "Job", Name: owner},
		Containers: []timeline.Container{{Name: container, Kind: timeline.KindApp, RestartCount: 2}},
		Gaps: []timeline.Gap{{Name: "pod deletion → " + container + " exit", To: timeline.MilestoneRef{Container: container, Kind: timeline.MExit},
			Span: timeline.Span{Value: 1500 * time.Millisecond, Min: time.Second, Max: 2 * time.Second}}},
	}
}

// TestHostileLabels: names with quotes, newlines, escapes and invalid UTF-8 are label values
// the exposition quotes, and a parser reads them back as they were (made valid UTF-8).
func TestHostileLabels(t *testing.T) {
	ns, owner, ctr := "ns\"\n\\{x=\"1\"}", "job\x1b[2J\u202e", "c\xff\x00"
	a := New(Config{OwnerNames: true, MaxOwners: 10, Log: quiet(t)}, NewMetrics("test"))
	a.count(hostilePod(ns, owner, ctr), &podTrack{})
	rec := httptest.NewRecorder()
	Handler(a).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("the exposition does not parse: %v", err)
	}
	f := fams["sidecar_top_gap_seconds"]
	if f == nil || len(f.Metric) != 1 {
		t.Fatalf("want one gap series, have %v", f)
	}
	got := map[string]string{}
	for _, l := range f.Metric[0].Label {
		got[l.GetName()] = l.GetValue()
	}
	want := map[string]string{"namespace": ns, "owner_kind": "Job", "owner": owner, "role": "app",
		"gap": "pod deletion -> c\uFFFD\x00 exit"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("label %s = %q, want %q", k, got[k], v)
		}
	}
	if h := f.Metric[0].Histogram; h.GetSampleCount() != 1 || h.GetSampleSum() != 1.5 {
		t.Errorf("gap observed %d times, sum %g; want once, 1.5", h.GetSampleCount(), h.GetSampleSum())
	}
}

// TestOwnerCap: past --max-owners names in a namespace, a new owner is "other"; names seen keep
// theirs, other namespaces have their own cap, and --owner-names=false labels none.
func TestOwnerCap(t *testing.T) {
	o := newOwners(true, 2)
	ref := func(name string) *timeline.OwnerRef { return &timeline.OwnerRef{Kind: "Job", Name: name} }
	steps := []struct{ ns, name, want string }{
		{"a", "j1", "j1"}, {"a", "j2", "j2"}, {"a", "j3", OtherOwner}, {"a", "j1", "j1"}, {"b", "j3", "j3"},
		{"a", "web-5d8f7c9b6d", OtherOwner}, // a ReplicaSet's Deployment is a new owner too
	}
	for _, s := range steps {
		if _, got := o.label(s.ns, ref(s.name)); got != s.want {
			t.Errorf("%s/%s: %q, want %q", s.ns, s.name, got, s.want)
		}
	}
	if kind, name := newOwners(false, 2).label("a", ref("j1")); kind != "Job" || name != "" {
		t.Errorf("--owner-names=false: %q %q, want Job and \"\"", kind, name)
	}
	if kind, name := o.label("a", &timeline.OwnerRef{Kind: "ReplicaSet", Name: "web-5d8f7c9b6d"}); kind != "Deployment" || name != OtherOwner {
		t.Errorf("a ReplicaSet's pod: %q %q, want its Deployment (capped: other)", kind, name)
	}
}
