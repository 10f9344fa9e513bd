package memtune

import (
	"os"
	"strconv"
	"strings"
)

// mappedFromFiles is how much of the process's resident memory is mapped from files (RssFile in
// /proc/self/status), or 0 where that is not known.
func mappedFromFiles() int64 { return ProcStatus("RssFile:") }

// ProcStatus is a size /proc/self/status gives, such as "RssFile:", in bytes; 0 where it is not
// known.
func ProcStatus(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
