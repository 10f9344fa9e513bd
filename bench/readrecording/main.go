// Command readrecording streams a recording through sidecar-top's reader, as replay's (no
// objects, recfile.NoObjects), watch.Observe (done
// by the reader's decoding workers, one per GOMAXPROCS) and a sink that drops each observation,
// then prints what it took: items, wall and CPU seconds, MB/s of input, and peak RSS (VmHWM).
// It is the Go half of scripts/bench-reader.sh.
//
//	go run ./bench/readrecording FILE
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/sidecar-top/sidecar-top/recfile"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: readrecording FILE")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "readrecording:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	start, cpu0 := time.Now(), cpuTime()
	rd, err := recfile.NewReader(f, path, recfile.Options{Objects: recfile.NoObjects}) // as replay reads
	if err != nil {
		return err
	}
	defer rd.Close()
	n := 0
	for {
		r, err := rd.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if !r.IsObs {
			continue
		}
		sink(r.Obs.Received)
		n++
	}
	wall, cpu := time.Since(start), cpuTime()-cpu0
	hwm, err := peakRSS()
	if err != nil {
		return err
	}
	mb := float64(fi.Size()) / 1e6
	fmt.Printf("items %d, skipped %d, MB %.1f, wall %.3f s, CPU %.3f s, MB/s %.1f, workers %d, peak RSS %.1f MiB\n",
		n, rd.Skipped, mb, wall.Seconds(), cpu.Seconds(), mb/wall.Seconds(), runtime.GOMAXPROCS(0), float64(hwm)/(1<<10))
	return nil
}

var last time.Time

// sink keeps the observation's use from being optimised away, and nothing else.
func sink(t time.Time) { last = t }

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSS reads the process's peak resident set size, in KiB, from /proc/self/status.
func peakRSS() (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			var kb int64
			_, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb)
			return kb, err
		}
	}
	return 0, errors.New("no VmHWM in /proc/self/status")
}
