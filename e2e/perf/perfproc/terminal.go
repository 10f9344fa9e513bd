//go:build linux

package perfproc

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Terminal is a program running on a pseudo-terminal of rows × cols (script(1)'s), with what it
// draws kept and keys sent to it.
type Terminal struct {
	*Proc
	in  io.WriteCloser
	mu  sync.Mutex
	out bytes.Buffer
}

// StartTerminal runs argv on a terminal of rows × cols. The measured process is the program
// itself, not script or its shell.
func StartTerminal(label string, rows, cols int, env []string, argv ...string) (*Terminal, error) {
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	shell := fmt.Sprintf("stty rows %d cols %d; exec %s", rows, cols, strings.Join(quoted, " "))
	cmd := exec.Command("script", "-qfec", shell, "/dev/null")
	cmd.Env = append(os.Environ(), env...)
	t := &Terminal{}
	cmd.Stdout, cmd.Stderr = t, t
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("script: %w", err)
	}
	t.in = in
	t.Proc = &Proc{Label: label, Cmd: cmd, Out: "(terminal)", done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(t.done) }()
	pid, err := descendant(cmd.Process.Pid, argv[0], 5*time.Second)
	if err != nil {
		t.Stop()
		return nil, err
	}
	t.pid = pid
	return t, nil
}

// Write keeps what the program draws.
func (t *Terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.Write(p)
}

// Drawn is everything the program has drawn so far.
func (t *Terminal) Drawn() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.String()
}

// Len is how many bytes the program has drawn.
func (t *Terminal) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.Len()
}

// Keys types keys on the terminal.
func (t *Terminal) Keys(keys string) error {
	_, err := io.WriteString(t.in, keys)
	return err
}

// WaitFor waits until what the program drew after byte from holds want, and says when it did.
func (t *Terminal) WaitFor(from int, want string, timeout time.Duration) (time.Time, error) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		t.mu.Lock()
		found := bytes.Contains(t.out.Bytes()[min(from, t.out.Len()):], []byte(want))
		t.mu.Unlock()
		if found {
			return time.Now(), nil
		}
		if t.Exited() {
			return time.Time{}, fmt.Errorf("%s exited: %q", t.Label, tail(t.Drawn()))
		}
		time.Sleep(2 * time.Millisecond)
	}
	return time.Time{}, fmt.Errorf("%s drew no %q in %s: %q", t.Label, want, timeout, tail(t.Drawn()))
}

// WaitForCount waits until what the program drew after byte from holds a number of at least
// least followed by suffix ("5000 pods ·"), and says when it did: a header that counts what the
// cluster holds, where other pods than the benchmark's may come and go.
func (t *Terminal) WaitForCount(from int, suffix string, least int, timeout time.Duration) (time.Time, error) {
	re := regexp.MustCompile(`(\d+)` + regexp.QuoteMeta(suffix))
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		t.mu.Lock()
		b := t.out.Bytes()[min(from, t.out.Len()):]
		var found bool
		for _, m := range re.FindAllSubmatch(b, -1) {
			if n, err := strconv.Atoi(string(m[1])); err == nil && n >= least {
				found = true
			}
		}
		from = max(from, t.out.Len()-64) // a number drawn in part is looked at again
		t.mu.Unlock()
		if found {
			return time.Now(), nil
		}
		if t.Exited() {
			return time.Time{}, fmt.Errorf("%s exited: %q", t.Label, tail(t.Drawn()))
		}
		time.Sleep(2 * time.Millisecond)
	}
	return time.Time{}, fmt.Errorf("%s drew no %d or more %q in %s: %q", t.Label, least, suffix, timeout, tail(t.Drawn()))
}

func tail(s string) string { return s[max(0, len(s)-300):] }

// descendant finds the process named like bin among pid's descendants (script runs a shell
// that execs it), waiting up to timeout for it to appear.
func descendant(pid int, bin string, timeout time.Duration) (int, error) {
	name := bin[strings.LastIndexByte(bin, '/')+1:]
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		queue := []int{pid}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", p)); err == nil && strings.HasSuffix(exe, "/"+name) {
				return p, nil
			}
			queue = append(queue, children(p)...)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return 0, fmt.Errorf("no %s under process %d after %s", name, pid, timeout)
}

// children lists a process's children, from every thread's children file.
func children(pid int) []int {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	var kids []int
	for _, task := range tasks {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, task.Name()))
		for f := range strings.FieldsSeq(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				kids = append(kids, n)
			}
		}
	}
	return kids
}
