package main

import (
	"encoding/json"
	"io"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// timelineJSON is what -o json prints: the final timeline, with what it is of.
type timelineJSON struct {
	Kind      string `json:"kind"`
	Version   int    `json:"version"`
	Namespace string `json:"namespace,omitempty"`
	Target    string `json:"target,omitempty"`
	timeline.Snapshot
}

func writeJSON(w io.Writer, namespace, target string, s timeline.Snapshot) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(timelineJSON{Kind: "SidecarTopTimeline", Version: 1, Namespace: namespace, Target: target, Snapshot: s})
}
