package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// askBackgroundEnv, when set, makes TestAskDarkBackground the program under test: it asks its
// terminal, the pseudo-terminal the test made, and says what it learnt in its exit status.
const askBackgroundEnv = "SIDECAR_TOP_TEST_ASK_BACKGROUND"

// The exit statuses of the program under test.
const (
	askedDark    = 10
	askedLight   = 11
	askedUnknown = 12
)

// TestAskDarkBackground: the view's question to the terminal reads a light or a dark answer,
// takes a terminal that answers only the cursor's question for one that does not know OSC 11,
// and gives up on a silent one after backgroundWait, well before termenv's 5 s.
func TestAskDarkBackground(t *testing.T) {
	if os.Getenv(askBackgroundEnv) != "" {
		dark, known := askDarkBackground(os.Stdout, "xterm-256color", backgroundWait)
		switch {
		case !known:
			os.Exit(askedUnknown)
		case dark:
			os.Exit(askedDark)
		}
		os.Exit(askedLight)
	}
	for _, tt := range []struct {
		name, answer string
		want         int
	}{
		{"light", "\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[1;1R", askedLight},
		{"dark", "\x1b]11;rgb:1b1b/1d1d/2323\a\x1b[1;1R", askedDark},
		{"no OSC 11", "\x1b[1;1R", askedUnknown},
		{"silent", "", askedUnknown},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, took, asked := askOnPTY(t, tt.answer)
			if code != tt.want {
				t.Errorf("exit %d, want %d", code, tt.want)
			}
			if asked != queryBackground+queryCursor {
				t.Errorf("the terminal was asked %q, want %q", asked, queryBackground+queryCursor)
			}
			// Asserted loosely (a loaded machine): the point is well under termenv's 5 s.
			if took > 3*time.Second {
				t.Errorf("took %s; the view's wait is %s", took, backgroundWait)
			}
		})
	}
}

// askOnPTY runs the program under test on a pseudo-terminal, answers its questions with answer
// once both are asked, and returns its exit status, how long it ran and what it asked.
func askOnPTY(t *testing.T, answer string) (code int, took time.Duration, asked string) {
	t.Helper()
	master, slave := openPTY(t, 24, 80)
	cmd := exec.Command(os.Args[0], "-test.run=^TestAskDarkBackground$")
	cmd.Env = append(os.Environ(), askBackgroundEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	defer master.Close()
	var out lockedOutput
	go out.copyFrom(master)
	for deadline := time.Now().Add(10 * time.Second); answer != "" && !strings.Contains(out.String(), queryCursor); {
		if time.Now().After(deadline) {
			t.Fatalf("not asked within 10 s: %q", out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if answer != "" {
		if _, err := master.WriteString(answer); err != nil {
			t.Fatal(err)
		}
	}
	err := cmd.Wait()
	took = time.Since(start)
	time.Sleep(50 * time.Millisecond) // the last bytes through the pty
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("the program under test: %v", err)
	}
	return exit.ExitCode(), took, out.String()
}
