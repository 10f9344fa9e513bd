package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fifoViewEnv, when set, makes TestReplayViewFromPipe the program under test: it replays, in the
// view, the named pipe the variable names.
const fifoViewEnv = "SIDECAR_TOP_TEST_FIFO_VIEW"

// TestReplayViewFromPipe: replay in the view from a named pipe whose writer has written part of
// a recording and never closes it (a recorder still running) shows what it has read, and quits
// on q; it had waited for the end of the recording before drawing anything, a blank screen where
// q did nothing. On a pseudo-terminal of 120×40; CI set, so that the terminal is not asked for
// its colours (termenv asks nothing then), as --color never needs none.
func TestReplayViewFromPipe(t *testing.T) {
	if path := os.Getenv(fifoViewEnv); path != "" {
		os.Exit(run([]string{"replay", path, "--color", "never"}, newStreams()))
	}
	fifo := filepath.Join(t.TempDir(), "rec.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipe here: %v", err)
	}
	rec, err := os.ReadFile(recordingPath("startup-probe"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(rec, []byte("\n"))
	// Opened to read and write, it opens at once (Linux), and the replay reads what is written
	// to it; it is held open until the test ends.
	w, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	go w.Write(bytes.Join(lines[:12], nil)) // more than the pipe holds: written as it is read

	cmd := exec.Command(os.Args[0], "-test.run=^TestReplayViewFromPipe$")
	cmd.Env = append(os.Environ(), fifoViewEnv+"="+fifo, "TERM=xterm-256color", "CI=1")
	master, done, out := onPTY(t, 40, 120, cmd)

	// The view draws the pod (sc-a) and its init container from the lines written so far.
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "sc-a") || !strings.Contains(out.String(), "init-sleep") {
		if time.Now().After(deadline) {
			t.Fatalf("no view of what was read within 20 s; the terminal got %q", tail(out.String(), 500))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := master.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the view ended with %v; the terminal got %q", err, tail(out.String(), 500))
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the view did not quit on q; the terminal got %q", tail(out.String(), 500))
	}
}
