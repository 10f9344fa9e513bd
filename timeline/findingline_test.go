package timeline_test

import (
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestFindingLine: a finding's line names its container when the text does not, and its pod
// when that is not the pod it is listed under, on one line.
func TestFindingLine(t *testing.T) {
	f := timeline.Finding{Pod: "p-1", Container: "proxy", Text: "restarted 3 times,\n  backing off"}
	for _, tc := range []struct{ within, want string }{
		{"p-1", "proxy: restarted 3 times, backing off"},
		{"", "pod p-1: proxy: restarted 3 times, backing off"},
	} {
		if got := f.Line(tc.within); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.within, got, tc.want)
		}
	}
	named := timeline.Finding{Pod: "p-1", Container: "proxy", Text: "`proxy` did not exit"}
	if got, want := named.Line("p-1"), "`proxy` did not exit"; got != want {
		t.Errorf("Line of a text that names its container = %q, want %q", got, want)
	}
}
