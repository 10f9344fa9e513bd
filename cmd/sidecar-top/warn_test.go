package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/sidecar-top/sidecar-top/play"
)

// TestWarnStale: plain output says when the API server stopped answering, again each time the
// silence doubles (not every second), and when it answers again.
func TestWarnStale(t *testing.T) {
	var errOut bytes.Buffer
	warn := warnTo(streams{IOStreams: genericiooptions.IOStreams{ErrOut: &errOut}})
	for _, s := range []int{0, 5, 6, 7, 9, 10, 11, 19, 20, 0, 0, 5} {
		warn(play.Frame{Silent: time.Duration(s) * time.Second})
	}
	want := "sidecar-top: warning: no answer from the API server for 5s: what is shown is stale\n" +
		"sidecar-top: warning: no answer from the API server for 10s: what is shown is stale\n" +
		"sidecar-top: warning: no answer from the API server for 20s: what is shown is stale\n" +
		"sidecar-top: the API server answers again\n" +
		"sidecar-top: warning: no answer from the API server for 5s: what is shown is stale\n"
	if diff := cmp.Diff(want, errOut.String()); diff != "" {
		t.Errorf("standard error (-want +got):\n%s", diff)
	}
}
