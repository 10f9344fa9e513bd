//go:build linux

package main

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

// proc is one watcher under measurement.
type proc struct {
	label string // what it watches, as the table shows it
	bin   string // which binary: a -bin name, or kubectl
	cmd   *exec.Cmd
	out   string
}

// start runs argv with its output in outPath.
func start(label, bin, outPath string, argv ...string) (*proc, error) {
	f, err := os.Create(outPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	return &proc{label: label, bin: bin, cmd: cmd, out: outPath}, nil
}

// sample is a process's peak resident set (VmHWM) and the CPU time it used (utime + stime).
type sample struct {
	RSSKiB  int     // peak resident set, VmHWM
	AnonKiB int     // anonymous resident memory at the end (the heap, mostly), RssAnon
	CPU     float64 // seconds
}

// measure reads the sample of a process that still runs.
func (p *proc) measure() (sample, error) {
	pid := p.cmd.Process.Pid
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return sample{}, err
	}
	var s sample
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
			return sample{}, fmt.Errorf("%s of %d: %w", key, pid, err)
		}
	}
	if s.RSSKiB == 0 {
		return sample{}, fmt.Errorf("process %d has exited (see %s)", pid, p.out)
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return sample{}, err
	}
	// The fields after the command name, which is in parentheses and may hold spaces:
	// state is field 3, utime 14, stime 15.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	utime, err1 := strconv.Atoi(fields[11])
	stime, err2 := strconv.Atoi(fields[12])
	if err1 != nil || err2 != nil {
		return sample{}, fmt.Errorf("bad /proc/%d/stat", pid)
	}
	s.CPU = float64(utime+stime) / clockTicks
	return s, nil
}

// evict drops a binary's pages from the page cache, so that each run maps it the same way.
// Most of a Go program's RSS is its own text and tables mapped from the file, and how much of
// them a run maps depends on how the file sits in the page cache: a binary just written by
// go build sits in large folios and maps up to ~20 MB more than after it has been read back.
func evict(path string) error {
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

// stop interrupts the process as Ctrl-C would, and kills it if it lingers.
func (p *proc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	done := make(chan struct{})
	go func() {
		_ = p.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}
