// Package recordings embeds real recordings of native-sidecar pods, made on a real kubelet
// (see README.md in this directory for what happened in each, from the runtime's logs). The
// demo command replays them with no cluster, and the tests use them as fixtures.
package recordings

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.jsonl
var files embed.FS

// Names lists the embedded recordings, without the .jsonl suffix, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".jsonl"))
	}
	sort.Strings(names)
	return names
}

// Open opens the embedded recording with this name (no suffix).
func Open(name string) (fs.File, error) { return files.Open(name + ".jsonl") }

// Bytes is the embedded recording with this name (no suffix), whole.
func Bytes(name string) ([]byte, error) { return files.ReadFile(name + ".jsonl") }
