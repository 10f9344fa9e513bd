package recfile

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/sidecar-top/sidecar-top/internal/jsonsafe"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// Recording format, version 1: JSON Lines. The first line is a Header; every other line is a
// watch event as kubectl prints it with --output-watch-events, plus its local receive time:
//
//	{"time":"2026-12-02T08:00:01.123456789Z","type":"ADDED","object":{"kind":"Pod",...}}
//
// Objects of kind ContainerLog and KubeletLog (apiVersion sidecar-top.dev/v1; see watch/logitem.go)
// carry what sidecar-top read from the containers' logs and the kubelet's.
const (
	RecordingKind    = "SidecarTopRecording"
	RecordingVersion = 1
)

// Header is a recording's first line.
type Header struct {
	Kind          string    `json:"kind"`
	Version       int       `json:"version"`
	Tool          string    `json:"tool,omitempty"`
	ServerVersion string    `json:"serverVersion,omitempty"`
	Namespace     string    `json:"namespace"`
	Target        string    `json:"target"`
	StartTime     time.Time `json:"startTime"`
	// Logs says the recording has the container logs' items (stamps and lengths of lines);
	// LogText that they keep every line's text, not only that of lines that matched one of
	// Marks (the --mark rules, as given). NodeLogs says it has the kubelet's lines.
	Logs     bool     `json:"logs,omitempty"`
	LogText  bool     `json:"logText,omitempty"`
	Marks    []string `json:"marks,omitempty"`
	NodeLogs bool     `json:"nodeLogs,omitempty"`
	// Redacted names the fields removed from every object, wherever they were (Redacted, as
	// Sanitize removes them).
	Redacted []string `json:"redacted,omitempty"`
}

type line struct {
	Time   time.Time          `json:"time"`
	Type   timeline.WatchType `json:"type"`
	Object json.RawMessage    `json:"object"`
}

// Recorder writes a recording. Each line goes out in one Write, so a recorder killed at any
// moment leaves a file that replays up to its last whole line.
type Recorder struct{ w io.Writer }

// NewRecorder writes the header and returns a Recorder for the rest.
func NewRecorder(w io.Writer, h Header) (*Recorder, error) {
	h.Kind, h.Version = RecordingKind, RecordingVersion
	r := &Recorder{w}
	return r, r.writeLine(h)
}

// Write appends one item; its object should have been through Sanitize.
func (r *Recorder) Write(it watch.Item) error {
	obj, err := json.Marshal(it.Object)
	if err != nil {
		return fmt.Errorf("encode %T: %w", it.Object, err)
	}
	return r.writeLine(line{Time: it.Time.UTC(), Type: it.Type, Object: obj})
}

func (r *Recorder) writeLine(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	// What a terminal could obey is spelled as JSON escapes: -o - may write to one.
	if _, err := r.w.Write(append(jsonsafe.Escape(b), '\n')); err != nil {
		return fmt.Errorf("write recording: %w", err)
	}
	return nil
}

// parseHeader reads line 1 as a header, or returns nil if it is not one (a recording without a
// header starts with its first item).
func parseHeader(b []byte) (*Header, error) {
	var probe struct {
		Kind string `json:"kind"`
	}
	if jsonv2.Unmarshal(b, &probe, decodeOptions) != nil || probe.Kind != RecordingKind {
		return nil, nil
	}
	var w struct {
		Kind          string         `json:"kind"`
		Version       jsontext.Value `json:"version"`
		Tool          string         `json:"tool"`
		ServerVersion string         `json:"serverVersion"`
		Namespace     string         `json:"namespace"`
		Target        string         `json:"target"`
		StartTime     time.Time      `json:"startTime"`
		Logs          bool           `json:"logs"`
		LogText       bool           `json:"logText"`
		Marks         []string       `json:"marks"`
		NodeLogs      bool           `json:"nodeLogs"`
		Redacted      []string       `json:"redacted"`
	}
	if err := jsonv2.Unmarshal(b, &w, decodeOptions); err != nil {
		return nil, fmt.Errorf("malformed recording header: %w", err)
	}
	v, err := headerVersion(w.Version)
	if err != nil {
		return nil, err
	}
	return &Header{Kind: w.Kind, Version: v, Tool: w.Tool, ServerVersion: w.ServerVersion,
		Namespace: w.Namespace, Target: w.Target, StartTime: w.StartTime,
		Logs: w.Logs, LogText: w.LogText, Marks: w.Marks, NodeLogs: w.NodeLogs, Redacted: w.Redacted}, nil
}

// headerVersion reads the header's "version": a whole number from 1 to RecordingVersion.
func headerVersion(v jsontext.Value) (int, error) {
	n, err := strconv.Atoi(string(v))
	switch {
	case v.Kind() != '0' || err != nil || n < 1:
		what := "missing"
		if len(v) > 0 {
			what = describe(v)
		}
		return 0, fmt.Errorf("recording header has no valid version: \"version\" is %s, want a whole number such as %d", what, RecordingVersion)
	case n > RecordingVersion:
		return 0, fmt.Errorf("recording version %d is newer than this sidecar-top reads (%d): upgrade sidecar-top", n, RecordingVersion)
	}
	return n, nil
}
