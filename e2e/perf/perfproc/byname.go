//go:build linux

package perfproc

import (
	"os"
	"strconv"
	"strings"
)

// CPUOf is the CPU time in seconds used so far by every process whose command name is name
// (the cluster's own components, which no script started), and how many there are.
func CPUOf(name string) (float64, int) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, 0
	}
	var sum float64
	n := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, err := os.ReadFile("/proc/" + e.Name() + "/comm")
		if err != nil || strings.TrimSpace(string(comm)) != name {
			continue
		}
		if c, err := cpu(pid); err == nil {
			sum += c
			n++
		}
	}
	return sum, n
}
