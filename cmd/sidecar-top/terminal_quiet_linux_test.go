package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/internal/quietterm"
)

// quietArgsEnv, when set, makes TestQuietOffTheView the program under test, run with these
// arguments (JSON) on the pseudo-terminal the test made, as main runs.
const quietArgsEnv = "SIDECAR_TOP_TEST_QUIET_ARGS"

// TestQuietOffTheView: every command but the view, run on a terminal that never answers, asks it
// nothing (no OSC 11, no CSI 6n in what it wrote), so none waits termenv's 5 s for an answer:
// Bubble Tea asks when it is loaded, in every program that links it, unless internal/quietterm
// keeps it from asking.
func TestQuietOffTheView(t *testing.T) {
	if a := os.Getenv(quietArgsEnv); a != "" {
		var args []string
		_ = json.Unmarshal([]byte(a), &args)
		quietterm.Restore()
		os.Exit(run(args, newStreams()))
	}
	rec := recordingPath("startup-probe")
	for _, args := range [][]string{
		{"version"},
		{"check", rec, "--assert", "pod.ready < 60s"},
		{"export", rec, "--format", "markdown"},
		{"diff", rec, rec},
		{"replay", "--plain", rec},
		{"replay", "-o", "json", rec},
		{"demo", "--list"},
	} {
		t.Run(strings.Join(args[:1], " "), func(t *testing.T) {
			master, slave := openPTY(t, 40, 120)
			b, _ := json.Marshal(args)
			cmd := exec.Command(os.Args[0], "-test.run=^TestQuietOffTheView$")
			cmd.Env = append(os.Environ(), quietArgsEnv+"="+string(b), "TERM=xterm-256color", "NO_COLOR=", "COLORFGBG=", "CI=")
			cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			slave.Close()
			var out lockedOutput
			go out.copyFrom(master)
			start := time.Now()
			err := cmd.Wait()
			took := time.Since(start)
			time.Sleep(50 * time.Millisecond) // the last bytes through the pty
			master.Close()
			t.Logf("%s: %v after %s", strings.Join(args, " "), err, took.Round(time.Millisecond))
			for _, query := range []string{"\x1b]11;?", "\x1b[6n"} {
				if strings.Contains(out.String(), query) {
					t.Errorf("%s asked the terminal %q: %q", args, query, tail(out.String(), 300))
				}
			}
		})
	}
}
