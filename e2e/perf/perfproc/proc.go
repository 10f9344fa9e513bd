//go:build linux

// Package perfproc runs the programs a performance script measures and reads what they cost
// from /proc: peak resident set, anonymous memory and CPU time. The scripts under e2e/perf
// share it.
package perfproc

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/PID/stat: 100 on Linux.
const clockTicks = 100

// Proc is one program under measurement.
type Proc struct {
	Label string // what the report calls it
	Cmd   *exec.Cmd
	Out   string // where its output goes
	pid   int    // the measured process: Cmd's, or the program script(1) runs on a terminal
	done  chan struct{}
}

// Start runs argv with its output (stdout and stderr) in outPath.
func Start(label, outPath string, env []string, argv ...string) (*Proc, error) {
	f, err := os.Create(outPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	p := &Proc{Label: label, Cmd: cmd, Out: outPath, pid: cmd.Process.Pid, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	return p, nil
}

// Pid is the measured process's ID.
func (p *Proc) Pid() int { return p.pid }

// Exited reports whether the program has ended.
func (p *Proc) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Sample is a process's peak resident set (VmHWM), its anonymous memory now (RssAnon, the heap
// mostly) and the CPU time it used (utime + stime).
type Sample struct {
	RSSKiB  int
	AnonKiB int
	CPU     float64 // seconds
}

// MB is KiB as megabytes with one decimal, as the reports print them.
func MB(kib int) string { return fmt.Sprintf("%.1f MB", float64(kib)/1024) }

// Measure reads the sample of a process that still runs.
func (p *Proc) Measure() (Sample, error) { return measure(p.pid, p.Out) }

func measure(pid int, out string) (Sample, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return Sample{}, fmt.Errorf("process %d has exited (see %s)", pid, out)
	}
	var s Sample
	for line := range strings.SplitSeq(string(status), "\n") {
		key, value, _ := strings.Cut(line, ":")
		var field *int
		switch key {
		case "VmHWM":
			field = &s.RSSKiB
		case "RssAnon":
			field = &s.AnonKiB
		default:
			continue
		}
		if *field, err = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(value), " kB")); err != nil {
			return Sample{}, fmt.Errorf("%s of %d: %w", key, pid, err)
		}
	}
	if s.RSSKiB == 0 {
		return Sample{}, fmt.Errorf("process %d has exited (see %s)", pid, out)
	}
	s.CPU, err = cpu(pid)
	return s, err
}

// cpu is a process's utime + stime in seconds.
func cpu(pid int) (float64, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command name, which is in parentheses and may hold spaces:
	// state is field 3, utime 14, stime 15.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	utime, err1 := strconv.Atoi(fields[11])
	stime, err2 := strconv.Atoi(fields[12])
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("bad /proc/%d/stat", pid)
	}
	return float64(utime+stime) / clockTicks, nil
}

// Settle waits until the process has used no more than idle CPU-seconds a second for a whole
// quiet period (it has read what it was sent and drawn it), or until timeout. It returns how
// long that took, to the start of the quiet period.
func (p *Proc) Settle(quiet time.Duration, idle float64, timeout time.Duration) (time.Duration, error) {
	began := time.Now()
	last, err := cpu(p.pid)
	if err != nil {
		return 0, err
	}
	calmSince := time.Now()
	for time.Since(began) < timeout {
		time.Sleep(250 * time.Millisecond)
		now, err := cpu(p.pid)
		if err != nil {
			return 0, fmt.Errorf("%s exited (see %s)", p.Label, p.Out)
		}
		if now-last > idle/4 {
			calmSince = time.Now()
		}
		last = now
		if time.Since(calmSince) >= quiet {
			return calmSince.Sub(began), nil
		}
	}
	return time.Since(began), fmt.Errorf("%s still busy after %s", p.Label, timeout)
}

// Evict drops a binary's pages from the page cache, so that each run maps it the same way.
// Most of a Go program's RSS is its own text and tables mapped from the file, and how much of
// them a run maps depends on how the file sits in the page cache: a binary just written by
// go build sits in large folios and maps more than after it has been read back.
func Evict(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	const fadvDontNeed = 4 // POSIX_FADV_DONTNEED
	if _, _, errno := syscall.Syscall6(syscall.SYS_FADVISE64, f.Fd(), 0, 0, fadvDontNeed, 0, 0); errno != 0 {
		return fmt.Errorf("fadvise %s: %w", path, errno)
	}
	return nil
}

// Stop interrupts the program as Ctrl-C would, and kills it if it lingers.
func (p *Proc) Stop() {
	_ = syscall.Kill(p.pid, syscall.SIGINT)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = p.Cmd.Process.Kill()
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
		<-p.done
	}
}
