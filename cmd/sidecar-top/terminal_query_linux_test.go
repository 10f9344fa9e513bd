package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/sidecar-top/sidecar-top/internal/quietterm"
)

// silentTerminalEnv, when set, makes TestSilentTerminal the program under test: it runs the
// demo's view on its standard streams, the pseudo-terminal the test made.
const silentTerminalEnv = "SIDECAR_TOP_TEST_SILENT_TERMINAL"

// TestSilentTerminal: on a terminal that answers neither the background-colour query (OSC 11)
// nor the cursor-position query (CSI 6n), the view asks once, for its colours, waits
// backgroundWait for the answer (not termenv's 5 s), and never asks again: Bubble Tea's own
// question when it is loaded is not asked (internal/quietterm), so the view comes after the one
// short wait, and then quits on q. The demo runs in colour on a pseudo-terminal of 120×40 that
// this test never answers.
func TestSilentTerminal(t *testing.T) {
	if os.Getenv(silentTerminalEnv) != "" {
		quietterm.Restore() // as main does
		os.Exit(run([]string{"demo", "--color", "always"}, newStreams()))
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSilentTerminal$")
	// CI is cleared: termenv takes any non-empty CI (as CI machines set it) to mean "not a
	// terminal" and then asks nothing, which is not the user's terminal this test stands for.
	cmd.Env = append(os.Environ(), silentTerminalEnv+"=1", "TERM=xterm-256color", "NO_COLOR=", "COLORFGBG=", "CI=")
	master, done, out := onPTY(t, 40, 120, cmd)

	// The view draws the demo's pods (sc-...) once the one query has waited: from the question
	// to the view, well under termenv's 5 s (asserted loosely, for a loaded machine).
	deadline := time.Now().Add(30 * time.Second)
	var asked time.Time
	for !strings.Contains(out.String(), "sc-") {
		if asked.IsZero() && strings.Contains(out.String(), queryCursor) {
			asked = time.Now()
		}
		if time.Now().After(deadline) {
			t.Fatalf("no view within 30 s; the terminal got %q", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if waited := time.Since(asked); asked.IsZero() || waited > 3*time.Second {
		t.Errorf("the view came %s after its question (asked: %v); its wait is %s", waited.Round(time.Millisecond), !asked.IsZero(), backgroundWait)
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
		t.Fatalf("the view did not quit on q")
	}
	got := out.String()
	for _, query := range []string{"\x1b]11;?", "\x1b[6n"} {
		if n := strings.Count(got, query); n != 1 {
			t.Errorf("the terminal was asked %q %d times, want once (the view's)", query, n)
		}
	}
}

// onPTY starts cmd on a new pseudo-terminal of rows×cols, as the session leader it controls:
// the master, which the test reads and writes, cmd's end, and what cmd wrote to it so far. The
// test's end kills cmd and closes the master.
func onPTY(t *testing.T, rows, cols uint16, cmd *exec.Cmd) (master *os.File, done <-chan error, out *lockedOutput) {
	t.Helper()
	master, slave := openPTY(t, rows, cols)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	out = &lockedOutput{}
	go out.copyFrom(master)
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		master.Close()
	})
	return master, ended, out
}

// openPTY opens a pseudo-terminal of rows×cols: the master, which the test reads and writes,
// and the slave, the program's terminal.
func openPTY(t *testing.T, rows, cols uint16) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	var n uint32
	unlock := int32(0)
	if err := ioctl(master, syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		t.Fatal(err)
	}
	if err := ioctl(master, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		t.Fatal(err)
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.FormatUint(uint64(n), 10), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		t.Fatal(err)
	}
	size := [4]uint16{rows, cols, 0, 0}
	if err := ioctl(slave, syscall.TIOCSWINSZ, unsafe.Pointer(&size)); err != nil {
		t.Fatal(err)
	}
	return master, slave
}

func ioctl(f *os.File, req uintptr, arg unsafe.Pointer) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), req, uintptr(arg)); errno != 0 {
		return errno
	}
	return nil
}

// lockedOutput keeps what the program wrote to its terminal.
type lockedOutput struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *lockedOutput) copyFrom(f *os.File) {
	b := make([]byte, 32<<10)
	for {
		n, err := f.Read(b)
		o.mu.Lock()
		o.buf.Write(b[:n])
		o.mu.Unlock()
		if err != nil && !errors.Is(err, syscall.EINTR) {
			return
		}
	}
}

func (o *lockedOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

func tail(s string, n int) string { return s[max(len(s)-n, 0):] }
