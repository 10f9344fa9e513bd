package memtune

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestMappedFromFiles: on Linux a running program has its own code mapped: more than nothing,
// less than all it has resident.
func TestMappedFromFiles(t *testing.T) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status here:", err)
	}
	var rss int64
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			rss = kb << 10
		}
	}
	if got := mappedFromFiles(); got <= 0 || got > rss {
		t.Errorf("mappedFromFiles() = %d, want within (0, %d] (VmRSS)", got, rss)
	}
}
