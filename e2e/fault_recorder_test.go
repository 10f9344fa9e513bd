//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/recfile"
)

// fSetPipeSize is Linux's F_SETPIPE_SZ.
const fSetPipeSize = 1031

// TestFaultRecorderKilled: `sidecar-top record` is killed (kill -9) at random moments while it
// records a crash-looping pod, to a file and to a pipe (-o -) that a slow reader drains. Every
// time, what it left replays up to its last whole line: a file holds whole lines only (each
// goes out in one write), a line the kill cut short in the pipe is reported, not fatal, and the
// timeline holds the pod if a whole line does.
func TestFaultRecorderKilled(t *testing.T) {
	r := faultRun(t, "fault-rkill", "crashing-sidecar")
	ctx := t.Context()
	if err := r.Apply(ctx, "crashing-sidecar"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.WaitLine(ctx, "sidecar", 0, "sidecar start", time.Minute); err != nil {
		t.Fatal(err)
	}
	seed := uint64(time.Now().UnixNano())
	rnd := rand.New(rand.NewPCG(seed, 10))
	t.Logf("random kill times from seed %d", seed)
	torn := 0
	for i := range 8 {
		pipe := i%2 == 1
		delay := time.Duration(rnd.Int64N(int64(6 * time.Second)))
		path := filepath.Join(r.Dir, fmt.Sprintf("killed-%d.jsonl", i))
		killRecorder(t, ctx, r, path, pipe, delay)
		if replayKilled(t, ctx, path, pipe, delay) {
			torn++
		}
	}
	t.Logf("%d of the 4 recordings through a pipe ended in a line cut short", torn)
}

// killRecorder records pod/crashing-sidecar to path (through a pipe of 4 KiB that a reader
// drains at ~25 KB/s when pipe) and kills the recorder delay after it says it watches.
func killRecorder(t *testing.T, ctx context.Context, r *harness.Run, path string, pipe bool, delay time.Duration) {
	t.Helper()
	out := path
	if pipe {
		out = "-"
	}
	cmd := exec.CommandContext(ctx, env.Binary, "record", "--kubeconfig", env.Kubeconfig, "-n", r.Namespace,
		"pod/crashing-sidecar", "--output-file", out, "--timeout", "2m")
	var drained chan error
	if pipe {
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, pw.Fd(), fSetPipeSize, 4096); errno != 0 {
			t.Fatalf("F_SETPIPE_SZ: %v", errno)
		}
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout = pw
		drained = make(chan error, 1)
		go func() { drained <- slowCopy(f, pr) }()
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if pipe {
		cmd.Stdout.(*os.File).Close() // the child has it; the reader sees EOF when the child dies
	}
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stderr.String(), "sidecar-top: watching ") {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("the recorder did not say it was watching within 30 s: %s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(delay)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("kill -9: %v", err)
	}
	_ = cmd.Wait()
	if pipe {
		if err := <-drained; err != nil {
			t.Fatal(err)
		}
	}
}

// slowCopy copies src to dst 512 bytes at a time, 20 ms apart, and closes dst.
func slowCopy(dst *os.File, src *os.File) error {
	defer src.Close()
	buf := make([]byte, 512)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				dst.Close()
				return werr
			}
		}
		if err == io.EOF {
			return dst.Close()
		}
		if err != nil {
			dst.Close()
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// replayKilled checks what a killed recorder left at path: the reader reads every whole line
// and says whether the last was cut short; `sidecar-top replay -o json` plays it, warning of a
// line cut short. It returns whether one was.
func replayKilled(t *testing.T, ctx context.Context, path string, pipe bool, delay time.Duration) bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	whole := bytes.Count(data, []byte("\n"))
	cut := len(data) > 0 && data[len(data)-1] != '\n'
	what := fmt.Sprintf("killed %s after watching, to a %s: %d bytes, %d whole lines, cut short: %v",
		delay.Round(time.Millisecond), map[bool]string{false: "file", true: "pipe"}[pipe], len(data), whole, cut)
	t.Log(what)
	if cut && !pipe {
		t.Errorf("%s: a file written line by line, one write each, ends in a part of a line", what)
	}
	if whole < 2 {
		// Killed before its first item went out (a few milliseconds after it said it watched):
		// the replay says there is nothing to replay, in one line, and fails.
		out, err := exec.CommandContext(ctx, env.Binary, "replay", path, "-o", "json").CombinedOutput()
		if err == nil || !strings.Contains(string(out), "no Pod, Event or Job in the recording") {
			t.Errorf("%s: replay of the header alone: %v: %q; want the one-line error", what, err, out)
		}
		return cut
	}
	_, items, rd, err := recfile.ReadAll(bytes.NewReader(data), path)
	if err != nil {
		t.Fatalf("%s: the reader refuses it: %v", what, err)
	}
	if len(items)+rd.Skipped != whole-1 || rd.Truncated != cut {
		t.Errorf("%s: the reader gave %d items (%d skipped), truncated %v; want every whole line after the header", what, len(items), rd.Skipped, rd.Truncated)
	}

	cmd := exec.CommandContext(ctx, env.Binary, "replay", path, "-o", "json")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: sidecar-top replay -o json: %v: %s", what, err, stderr.String())
	}
	// The pod is in the timeline once its line is: a recorder killed within a few hundred
	// milliseconds may have got only Events through a slow pipe (the informers' first lists come
	// in any order).
	kinds, wantPods := make([]string, len(items)), 0
	for i, it := range items {
		kinds[i] = strings.TrimPrefix(fmt.Sprintf("%T", it.Object), "*")
		if kinds[i] == "v1.Pod" {
			wantPods = 1
		}
	}
	var doc harness.Timeline
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil || len(doc.Pods) != wantPods {
		t.Errorf("%s: the replay's JSON (%v) has %d pods, want %d (the items: %s)", what, err, len(doc.Pods),
			wantPods, strings.Join(kinds, " "))
	}
	warned := strings.Contains(stderr.String(), "the last line was cut short")
	if warned != cut {
		t.Errorf("%s: replay warned of a line cut short: %v; its standard error: %q", what, warned, stderr.String())
	}
	return cut
}
