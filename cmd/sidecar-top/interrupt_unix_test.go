//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// interruptEnv, when set, makes TestPlainInterrupted the program under test: it replays the
// recording the variable names with --plain at its recorded pace.
const interruptEnv = "SIDECAR_TOP_TEST_INTERRUPT"

// TestPlainInterrupted: replay --plain stopped by SIGINT (Ctrl-C) prints the lines it holds (a
// milestone's line waits a horizon after its estimate), then the summary of what it replayed,
// says on standard error that it was interrupted, and exits 130; it had died of the signal
// with some of the lines and no summary. The recording (startup-probe, 16 s) plays at 1×, and is
// interrupted once its first lines are out.
func TestPlainInterrupted(t *testing.T) {
	if path := os.Getenv(interruptEnv); path != "" {
		os.Exit(run([]string{"replay", path, "--plain", "--speed", "1"}, newStreams()))
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPlainInterrupted$")
	cmd.Env = append(os.Environ(), interruptEnv+"="+recordingPath("startup-probe"))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	out := bufio.NewReader(stdout)
	var got strings.Builder
	for strings.Count(got.String(), "\n") < 3 { // the pod created, scheduled, its init container created
		line, err := out.ReadString('\n')
		got.WriteString(line)
		if err != nil {
			t.Fatalf("the replay ended before its third line (%v):\n%s%s", err, got.String(), errOut.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		rest, _ := io.ReadAll(out)
		got.Write(rest)
		done <- cmd.Wait()
	}()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the replay did not stop after SIGINT")
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Errorf("the replay ended with %v, want exit status 130", err)
	}
	if !strings.Contains(got.String(), "pod sc-a in sc-a (uid ") {
		t.Errorf("no summary after SIGINT:\n%s", got.String())
	}
	if !strings.Contains(errOut.String(), "interrupted") || strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("standard error %q, want one line saying the replay was interrupted", errOut.String())
	}
}
