package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
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
// nothing (no OSC 11, no CSI 6n in what it wrote), so none waits for an answer (termenv waits
// 5 s): Bubble Tea asks when it is loaded, in every program that links it, unless
// internal/quietterm keeps it from asking. Every subcommand has a row, or the test fails; the
// live ones run against a server that refuses the connection.
func TestQuietOffTheView(t *testing.T) {
	if a := os.Getenv(quietArgsEnv); a != "" {
		var args []string
		_ = json.Unmarshal([]byte(a), &args)
		quietterm.Restore()
		os.Exit(run(args, newStreams()))
	}
	rec := recordingPath("startup-probe")
	cfg := unreachableConfig(t)
	rows := map[string][][]string{
		"":           {{"--kubeconfig", cfg, "-A", "-o", "json"}, {"--kubeconfig", cfg, "pod/x", "--plain"}, {"--version"}},
		"version":    {{"version"}},
		"check":      {{"check", rec, "--assert", "pod.ready - pod.created < 60s"}, {"check", "--kubeconfig", cfg, "pod/x", "--assert", "app.restarts == 0"}},
		"export":     {{"export", rec, "-o", "markdown"}, {"export", rec, "-o", "svg"}},
		"diff":       {{"diff", rec, rec}, {"diff", "-o", "yaml", rec, rec}},
		"replay":     {{"replay", "--plain", rec}, {"replay", "-o", "json", rec}},
		"demo":       {{"demo", "--list"}, {"demo", "-o", "yaml"}, {"demo", "--plain", "--speed", "max"}},
		"record":     {{"record", "--kubeconfig", cfg, "pod/x", "--output-file", filepath.Join(t.TempDir(), "r.jsonl")}},
		"agent":      {{"agent", "--kubeconfig", cfg, "--metrics-addr", "127.0.0.1:0"}},
		"completion": {{"completion", "bash"}},
		"help":       {{"help", "export"}, {"--help"}},
	}
	for _, c := range newRootCommand(newStreams()).Commands() {
		if _, ok := rows[c.Name()]; !ok && !c.Hidden {
			t.Errorf("no row for %q: every command must be shown not to ask the terminal", c.Name())
		}
	}
	for name, lines := range rows {
		for _, args := range lines {
			t.Run(strings.Join(append([]string{name}, args[:min(len(args), 2)]...), " "), func(t *testing.T) {
				quietOnSilentTerminal(t, args)
			})
		}
	}
}

// quietOnSilentTerminal runs the program with args on a pseudo-terminal that never answers, and
// fails if it asked the terminal anything or ran as long as termenv's wait for an answer.
func quietOnSilentTerminal(t *testing.T, args []string) {
	master, slave := openPTY(t, 40, 120)
	b, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestQuietOffTheView$")
	cmd.Env = append(os.Environ(), quietArgsEnv+"="+string(b), "TERM=xterm-256color", "NO_COLOR=", "COLORFGBG=", "CI=")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	var out lockedOutput
	go out.copyFrom(master)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("%s did not end within 30 s: %q", args, tail(out.String(), 300))
	}
	took := time.Since(start)
	time.Sleep(50 * time.Millisecond) // the last bytes through the pty
	master.Close()
	t.Logf("%s: %v after %s", strings.Join(args, " "), err, took.Round(time.Millisecond))
	for _, query := range []string{"\x1b]11;?", "\x1b[6n"} {
		if strings.Contains(out.String(), query) {
			t.Errorf("%s asked the terminal %q: %q", args, query, tail(out.String(), 300))
		}
	}
	// Loosely (a loaded machine runs these beside other tests): the point is that nothing waits
	// out termenv's 5 s for an answer.
	if took > 4*time.Second {
		t.Errorf("%s took %s: as long as a wait for the terminal's answer", args, took.Round(time.Millisecond))
	}
}
