package main

import (
	"encoding/json"
	"io"

	"github.com/sidecar-top/sidecar-top/timeline"
)

func writeJSON(w io.Writer, namespace, target string, s timeline.Snapshot) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(timeline.NewDocument(namespace, target, s))
}
