package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileAPIServer is an API server whose namespace ns holds the hostile recording's pods (as
// last seen) and Events, listed or streamed as a watch's initial events, and which answers the
// rest of what a watch asks (its version, the namespace, the access reviews, watches that bring
// nothing new), and nothing to a container's log; it returns the server's URL.
func hostileAPIServer(t *testing.T, rec string) string {
	t.Helper()
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	pods := map[string]json.RawMessage{}
	var order []string
	var events []json.RawMessage
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n"))[1:] {
		var line struct {
			Object json.RawMessage `json:"object"`
		}
		var meta struct {
			Kind     string `json:"kind"`
			Metadata struct {
				UID string `json:"uid"`
			} `json:"metadata"`
		}
		if json.Unmarshal(l, &line) != nil || json.Unmarshal(line.Object, &meta) != nil {
			continue // the cut last line
		}
		switch meta.Kind {
		case "Pod":
			if pods[meta.Metadata.UID] == nil {
				order = append(order, meta.Metadata.UID)
			}
			pods[meta.Metadata.UID] = line.Object
		case "Event":
			events = append(events, line.Object)
		}
	}
	list := func(kind string, items []json.RawMessage) string {
		b, _ := json.Marshal(map[string]any{"kind": kind, "apiVersion": "v1", "metadata": map[string]any{"resourceVersion": "1"}, "items": items})
		return string(b)
	}
	var podItems []json.RawMessage
	for _, uid := range order {
		podItems = append(podItems, pods[uid])
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch p := r.URL.Path; {
		case p == "/version":
			io.WriteString(w, `{"major":"1","minor":"37","gitVersion":"v1.37.2"}`)
		case p == "/api/v1/namespaces/ns":
			io.WriteString(w, `{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"ns"}}`)
		case r.Method == http.MethodPost && strings.HasSuffix(p, "accessreviews"):
			var review map[string]any
			if err := json.NewDecoder(r.Body).Decode(&review); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			review["status"] = map[string]any{"allowed": true}
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(review)
		case r.URL.Query().Get("watch") == "true":
			w.WriteHeader(http.StatusOK)
			if r.URL.Query().Get("sendInitialEvents") == "true" { // a list as a watch: its items, then the end
				kind, items := "Job", []json.RawMessage(nil)
				switch {
				case strings.HasSuffix(p, "/pods"):
					kind, items = "Pod", podItems
				case strings.HasSuffix(p, "/events"):
					kind, items = "Event", events
				}
				enc := json.NewEncoder(w)
				for _, it := range items {
					enc.Encode(map[string]any{"type": "ADDED", "object": it})
				}
				enc.Encode(map[string]any{"type": "BOOKMARK", "object": map[string]any{"kind": kind, "apiVersion": "v1",
					"metadata": map[string]any{"resourceVersion": "1", "annotations": map[string]string{"k8s.io/initial-events-end": "true"}}}})
			}
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		case strings.HasSuffix(p, "/pods"):
			io.WriteString(w, list("PodList", podItems))
		case strings.HasSuffix(p, "/events"):
			io.WriteString(w, list("EventList", events))
		case strings.HasSuffix(p, "/jobs"):
			io.WriteString(w, `{"kind":"JobList","apiVersion":"batch/v1","metadata":{"resourceVersion":"1"},"items":[]}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestEveryLiveOutputPath: the hostile recording's pods and Events, served by an API server,
// through what a live watch writes: record's recording (to a file, and to standard output with
// its lines on standard error), its --export, check of a live target with --junit, and the
// table of a namespace as JSON; each file named with hostile bytes. Every byte written is
// scanned as in TestEveryOutputPath.
func TestEveryLiveOutputPath(t *testing.T) {
	rec, out := hostileFiles(t)
	cfg := kubeconfig(t, hostileAPIServer(t, rec))
	file := func(ext string) string { return filepath.Join(out, hostileFileName+ext) }
	for _, args := range [][]string{
		{"record", "-n", "ns", "-l", "app=x", "--output-file", file(".rec.jsonl"), "--timeout", "2s", "--export", "markdown=" + file(".rec.md")},
		{"record", "-n", "ns", "-l", "app=x", "--output-file", "-", "--timeout", "2s"},
		{"check", "-n", "ns", "-l", "app=x", "--timeout", "2s", "--assert", "count(findings, warning) == 0", "--junit", file(".live.xml")},
		{"-n", "ns", "-o", "json"},
	} {
		args = append([]string{"--kubeconfig", cfg}, args...)
		what := fmt.Sprintf("%q", args[2:]) // the test's own messages are read on a terminal too
		_, stdout, stderr := runCmd(t, args...)
		checkNoForeignControls(t, what+": standard output", stdout, false)
		checkNoForeignControls(t, what+": standard error", stderr, false)
		if !strings.Contains(stdout+stderr, marker) && args[2] != "check" { // check's report of one pod names none: its --junit does
			t.Errorf("%s: the hostile text reached neither output: %q %q", what, stdout, stderr)
		}
	}
	for _, ext := range []string{".rec.jsonl", ".rec.md", ".live.xml"} {
		b, err := os.ReadFile(file(ext))
		if err != nil {
			t.Errorf("%s: %v", ext, err)
			continue
		}
		checkNoForeignControls(t, ext, string(b), false)
		if !bytes.Contains(b, []byte(marker)) {
			t.Errorf("%s does not hold the hostile text", ext)
		}
	}
}
