package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestStaleHeader: live, while the API server does not answer, the header says so in place of
// "● live", in full where there is room and shorter on a narrow terminal; once it answers, the
// header says live again.
func TestStaleHeader(t *testing.T) {
	tests := []struct {
		width  int
		silent time.Duration
		want   string
	}{
		{120, 12 * time.Second, "● no answer from the API server for 12s"},
		{60, 12 * time.Second, "● stale: no answer for 12s"},
		{120, 0, "● live"},
	}
	for _, tt := range tests {
		m := NewModel(Config{Target: "pod/web", Namespace: "ns", Frames: make(chan play.Frame), Styles: plainStyles()})
		m = resize(m, tt.width, 24)
		s := fixture()
		s.Pods = timeline.SeqOf(s.Pods.Slice()[1:]...)
		next, _ := m.Update(FrameMsg{Snapshot: s, Now: at(41.5), Silent: tt.silent})
		header := strings.SplitN(next.(Model).View(), "\n", 2)[0]
		if !strings.HasSuffix(strings.TrimRight(header, " "), tt.want) {
			t.Errorf("%d columns, silent %v: header %q does not end in %q", tt.width, tt.silent, header, tt.want)
		}
	}
}
