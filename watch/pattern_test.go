package watch

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestParsePattern: an argument with a character no name holds is a pattern of pod names, as
// stern's query; a name, and pod/NAME, stay the pod of that name.
func TestParsePattern(t *testing.T) {
	for _, tc := range []struct {
		arg, kind, str, err string
		match, miss         []string
	}{
		{arg: "web-.*", kind: "pod-pattern", str: "web-.*", match: []string{"web-1", "old-web-2"}, miss: []string{"api", "web"}},
		{arg: "^web-[0-9]+$", kind: "pod-pattern", str: "^web-[0-9]+$", match: []string{"web-12"}, miss: []string{"web-a", "xweb-1"}},
		{arg: "api|web", kind: "pod-pattern", str: "api|web", match: []string{"api-0", "web"}, miss: []string{"db"}},
		{arg: "web", kind: "pod", str: "pod/web", match: []string{"web"}, miss: []string{"web-1"}},
		{arg: "web.1", kind: "pod", str: "pod/web.1", match: []string{"web.1"}, miss: []string{"webx1"}},
		{arg: "pod/web-.*", err: `"web-.*" is not a valid name`},
		{arg: "web-(", err: `"web-(" is a pattern of pod names`},
	} {
		got, err := ParseTarget([]string{tc.arg}, "", "ns")
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one with %q", tc.arg, err, tc.err)
			}
			continue
		}
		if err != nil || string(got.Kind) != tc.kind || got.String() != tc.str {
			t.Errorf("%s: %v %q (%v), want %s %q", tc.arg, got.Kind, got.String(), err, tc.kind, tc.str)
		}
		matches := func(name string) bool { return name == got.Name }
		if got.Kind == TargetPodPattern {
			re, err := got.NamePattern()
			if err != nil {
				t.Fatal(err)
			}
			matches = re.MatchString
		}
		for _, n := range tc.match {
			if !matches(n) {
				t.Errorf("%s does not match %s", tc.arg, n)
			}
		}
		for _, n := range tc.miss {
			if matches(n) {
				t.Errorf("%s matches %s", tc.arg, n)
			}
		}
	}
}

// TestLivePattern: a pattern target watches the namespace's pods whose name it matches, and
// those pods' Events, as a selector's.
func TestLivePattern(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	defer cancel()
	target, err := ParseTarget([]string{"web-.*"}, "", "ns")
	if err != nil {
		t.Fatal(err)
	}
	c := newFakeCluster(testPod("api-0", "api-uid", "1", nil))
	l := startLive(t, ctx, c, target, LiveOptions{Recording: true}, "pods", "events")
	pods, events := c.CoreV1().Pods("ns"), c.CoreV1().Events("ns")
	got := &collector{t: t, ctx: ctx, l: l}
	create(t, ctx, events.Create, podEvent("api-0.1", "api-0", "api-uid"))
	create(t, ctx, pods.Create, testPod("web-1", "web-uid", "2", nil))
	got.next(1)
	create(t, ctx, events.Create, podEvent("web-1.1", "web-1", "web-uid"))
	got.next(1)
	want := []seen{
		{Type: timeline.Added, Kind: "Pod", Name: "web-1", Version: "2"},
		{Type: timeline.Added, Kind: "Event", Name: "web-1.1", Version: "1"},
	}
	if diff := cmp.Diff(want, got.got); diff != "" {
		t.Errorf("items mismatch (-want +got):\n%s", diff)
	}
}
