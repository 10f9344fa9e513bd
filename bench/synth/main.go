// Command synth writes a big recording made from an embedded real one, for benchmarks:
//
//	go run ./bench/synth pods N OUT      N copies of the Job's pod (job-native-sidecar)
//	go run ./bench/synth restarts R OUT  the crashing sidecar (crashing-sidecar) extended to R restarts
//
// It is the Go port of the shared gen_recording.py (internal/synth), so a clone needs nothing else;
// its crash loop says what a kubelet's does (the shared tool's names the wrong runs: see
// synth.Restarts).
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/recordings"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "synth:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("usage: synth pods|restarts N OUT")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 1 {
		return fmt.Errorf("N %q: want a positive number", args[1])
	}
	src, gen := "job-native-sidecar", synth.Pods
	switch args[0] {
	case "pods":
	case "restarts":
		src, gen = "crashing-sidecar", synth.Restarts
	default:
		return fmt.Errorf("%q: want pods or restarts", args[0])
	}
	b, err := recordings.Bytes(src)
	if err != nil {
		return err
	}
	out, err := gen(n, b)
	if err != nil {
		return err
	}
	return os.WriteFile(args[2], out, 0o644)
}
