package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/internal/quietterm"
)

// hangupEnv, when set, makes TestHangupEndsView the program under test: the demo's view on the
// pseudo-terminal the test made.
const hangupEnv = "SIDECAR_TOP_TEST_HANGUP"

// TestHangupEndsView: the view's terminal goes away (the terminal window closed, the SSH
// session dropped) with the program started under nohup, SIGHUP ignored. Bubble Tea then reads
// end of file and draws into nothing, and the view went on (a live one watching the cluster for
// nobody, seen left behind by an e2e run under nohup). It must end.
func TestHangupEndsView(t *testing.T) {
	if os.Getenv(hangupEnv) != "" {
		quietterm.Restore() // as main does
		os.Exit(run([]string{"demo", "--color", "never"}, newStreams()))
	}
	// As nohup starts it: SIGHUP ignored from the start, which exec keeps.
	cmd := exec.Command("sh", "-c", `trap '' HUP; exec "$0" -test.run='^TestHangupEndsView$'`, os.Args[0])
	cmd.Env = append(os.Environ(), hangupEnv+"=1", "TERM=xterm-256color", "CI=")
	master, done, out := onPTY(t, 30, 100, cmd)
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), "sc-") {
		if time.Now().After(deadline) {
			t.Fatalf("no view within 30 s; the terminal got %q", tail(out.String(), 500))
		}
		time.Sleep(10 * time.Millisecond)
	}
	master.Close() // the terminal hangs up
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the view went on 10 s after its terminal hung up")
	}
}
