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

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/ui"
)

// The hostile inputs TestNoForeignControls sends through every output: a recording, an API
// server, and the view of a recording.

// marker starts every hostile text, so that a test can tell the text reached an output.
const marker = "zq7"

// rawBytes stands, in a recording's JSON, for bytes that are not UTF-8 (a C1 CSI as one byte
// among them), spliced in after the JSON is written.
const rawBytes = "RAWBYTES"

// hostileText is what a container, a pod's author or a recording can put in a name, a reason or
// a message: OSC 52 (sets the clipboard), CSI 2J (clears the screen), a C1 CSI (U+009B, which
// some terminals obey like ESC [) as a character and as a lone byte, a bidi override, a
// zero-width space, other C0 controls and DEL, and bytes that are not UTF-8.
const hostileText = marker + "\x1b]52;c;cm0gLXJmIH4vKgo=\x07\x1b[2J\u009b2J\u202egpj.exe\u200b\x00\a\b\x7f" + rawBytes

// hostileRecording writes the embedded recording name, its pods copied to make pods of each
// (synth.Pods) when pods > 1, with hostileText in every container name, pod name, node name and
// namespace, after every Event's message, as one more Event's reason and message, and in the
// header's namespace and server version; it returns the file's path.
func hostileRecording(t *testing.T, name string, pods int) string {
	t.Helper()
	f, err := recordings.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if pods > 1 {
		if data, err = synth.Pods(pods, data); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var header map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &header); err != nil {
		t.Fatal(err)
	}
	ns := header["namespace"].(string)
	podNames := map[string]string{} // each pod's name, to the hostile name it gets wherever it is a whole value
	var node string
	var out bytes.Buffer
	for i, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			v["namespace"], v["serverVersion"] = hostileText, hostileText
		} else {
			obj := v["object"].(map[string]any)
			meta := obj["metadata"].(map[string]any)
			if name := meta["name"].(string); obj["kind"] == "Pod" && podNames[name] == "" {
				podNames[name] = fmt.Sprintf("%s-%d", hostileText, len(podNames))
			}
			if obj["kind"] == "Pod" && node == "" { // set once the pod is scheduled
				node, _ = obj["spec"].(map[string]any)["nodeName"].(string)
			}
			if obj["kind"] == "Event" {
				obj["message"] = fmt.Sprint(obj["message"], " ", hostileText)
			}
			if obj["kind"] == "Job" {
				// A condition of its own: any client that may write the Job's status can add one.
				st, _ := obj["status"].(map[string]any)
				if st == nil {
					st = map[string]any{}
					obj["status"] = st
				}
				conds, _ := st["conditions"].([]any)
				st["conditions"] = append(conds, map[string]any{"type": hostileText, "status": "True",
					"reason": hostileText, "message": hostileText, "lastTransitionTime": v["time"]})
			}
		}
		v = replaceStrings(v, func(s string) string {
			switch {
			case podNames[s] != "":
				return podNames[s]
			case s == ns || (s == node && node != ""):
				return hostileText
			case i > 0 && strings.Contains(s, "sidecar"): // container names, field paths, messages
				return strings.ReplaceAll(s, "sidecar", hostileText)
			}
			return s
		}).(map[string]any)
		writeLine(t, &out, v)
		if i == len(lines)-1 {
			ev := map[string]any{"time": v["time"], "type": "ADDED", "object": map[string]any{
				"kind": "Event", "apiVersion": "v1",
				"metadata":       map[string]any{"name": "hostile.1", "namespace": hostileText, "uid": "u-hostile"},
				"involvedObject": map[string]any{"kind": "Pod", "name": hostileText, "namespace": hostileText},
				"reason":         hostileText, "message": hostileText, "type": "Warning", "count": 1,
				"lastTimestamp": v["time"],
			}}
			writeLine(t, &out, ev)
		}
	}
	if len(podNames) == 0 {
		t.Fatalf("%s has no pod", name)
	}
	path := filepath.Join(t.TempDir(), name+".jsonl")
	b := bytes.ReplaceAll(out.Bytes(), []byte(rawBytes), []byte("\xff\x9b\xc0"))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeLine(t *testing.T, w *bytes.Buffer, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	w.WriteByte('\n')
}

// replaceStrings is v with every string in it (values and keys' values, not keys) passed
// through f.
func replaceStrings(v any, f func(string) string) any {
	switch x := v.(type) {
	case string:
		return f(x)
	case map[string]any:
		for k, e := range x {
			x[k] = replaceStrings(e, f)
		}
	case []any:
		for i, e := range x {
			x[i] = replaceStrings(e, f)
		}
	}
	return v
}

// hostileView is the replay view of the recording at path played to its end, in true colour.
func hostileView(t *testing.T, path string) tea.Model {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	renderer := lipgloss.NewRenderer(io.Discard)
	renderer.SetColorProfile(termenv.TrueColor)
	renderer.SetHasDarkBackground(true)
	return viewAtEnd(t, f, path, ui.NewStyles(renderer), nil)
}

// hostileServer is an API server that answers every request with an error whose text, which
// client-go puts in its error, is hostile: a 500 with a plain-text body, or (status) a 403 with
// a Status object whose message it is; it returns the server's URL.
func hostileServer(t *testing.T, status bool) string {
	t.Helper()
	text := strings.ReplaceAll(hostileText, rawBytes, "\xff\x9b")
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !status {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = io.WriteString(w, text)
			return
		}
		b, _ := json.Marshal(map[string]any{"kind": "Status", "apiVersion": "v1", "status": "Failure",
			"message": text, "reason": "Forbidden", "code": http.StatusForbidden})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
