//go:build e2e

package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sidecar-top/sidecar-top/watch"
)

// MarksFile is the marks every scenario is recorded with (e2e/manifests/marks.yaml): the steps
// its containers print, named after the built-in milestones they refine.
const MarksFile = "marks.yaml"

// logArgs are the recorder's arguments that make a recording carry the logs: the containers'
// (with the scenario marks; marks turn --logs on for every target) and the kubelet's.
func (e *Env) logArgs() []string {
	return []string{"--marks", filepath.Join(e.Root, "e2e", "manifests", MarksFile), "--node-logs"}
}

// withoutLogs copies the recording at path to dst without its log items, so that it replays as
// a recording made without logs: what the API alone tells. It returns how many items it dropped.
func withoutLogs(path, dst string) (int, error) {
	in, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, err
	}
	dropped, err := copyWithoutLogs(bufio.NewReaderSize(in, 1<<20), out)
	return dropped, errors.Join(err, out.Close())
}

// copyWithoutLogs copies a recording's lines, but those whose object is a log item of
// sidecar-top's own (ContainerLog or KubeletLog; its Notes, of the watch, stay).
func copyWithoutLogs(r *bufio.Reader, w io.Writer) (int, error) {
	bw := bufio.NewWriter(w)
	dropped := 0
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var item struct {
				Object struct {
					Kind       string `json:"kind"`
					APIVersion string `json:"apiVersion"`
				} `json:"object"`
			}
			if jerr := json.Unmarshal(bytes.TrimSpace(line), &item); jerr != nil && n > 1 {
				return dropped, fmt.Errorf("line %d: %w", n, jerr)
			}
			if o := item.Object; o.APIVersion == watch.LogAPIVersion && (o.Kind == watch.ContainerLogKind || o.Kind == watch.KubeletLogKind) {
				dropped++
			} else if _, err := bw.Write(line); err != nil {
				return dropped, err
			}
		}
		if err == io.EOF {
			return dropped, bw.Flush()
		}
		if err != nil {
			return dropped, err
		}
	}
}

// apiOnlyPath is where the recording without its log items is written.
func apiOnlyPath(recording string) string {
	return strings.TrimSuffix(recording, ".jsonl") + ".api.jsonl"
}
