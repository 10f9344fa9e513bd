//go:build e2e

package harness

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// daemon is a program the harness runs beside the cluster (Jaeger, Prometheus): in a process
// group of its own, what it prints kept, its files in dir, which Stop removes.
type daemon struct {
	cmd  *exec.Cmd
	log  syncBuffer
	dir  string
	done chan struct{} // closed when it has exited
}

// start runs bin with args, its files in dir; on failure dir is removed.
func (d *daemon) start(dir, bin string, args ...string) error {
	d.dir, d.done = dir, make(chan struct{})
	d.cmd = exec.Command(bin, args...)
	d.cmd.Stdout, d.cmd.Stderr = &d.log, &d.log
	d.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := d.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return err
	}
	go func() { _ = d.cmd.Wait(); close(d.done) }()
	return nil
}

// Stop stops it (SIGTERM to its group, then SIGKILL after 10 s) and removes its files.
func (d *daemon) Stop() {
	if d.cmd != nil && d.cmd.Process != nil {
		_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-d.done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
			<-d.done
		}
	}
	os.RemoveAll(d.dir)
}

// LogTail is the last n lines of what it printed.
func (d *daemon) LogTail(n int) string {
	lines := strings.Split(strings.TrimRight(d.log.String(), "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}
