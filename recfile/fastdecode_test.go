package recfile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
)

// tokenLineCases are lines the token read must give up on, or read as the library does, beside
// the recordings' own: escapes, numbers that are not plain integers, members of a whole
// Kubernetes type it does not read, nulls, duplicates, damaged bytes, trailing text.
var tokenLineCases = []string{
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"n\u0061me":"p"}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","status":{"containerStatuses":[{"name":"a","restartCount":1.0}]}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","status":{"containerStatuses":[{"name":"a","restartCount":1e1}]}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","status":{"containerStatuses":[{"name":"a","restartCount":-0}]}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","status":{"containerStatuses":[{"name":"a","restartCount":3000000000}]}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","status":{"containerStatuses":[{"state":{"terminated":{"exitCode":1,"future":2}}}]}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","status":{"containerStatuses":[{"state":{"waiting":null,"running":{"startedAt":null}},"started":null,"ready":null}]}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","status":{"containerStatuses":[null,{"name":"b"}],"conditions":null}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","status":{"conditions":[]},"metadata":{"ownerReferences":[]}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"ownerReferences":[{"kind":"Job","controller":true,"extra":1}]}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"deletionTimestamp":null,"deletionGracePeriodSeconds":null,"creationTimestamp":null}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"deletionTimestamp":"2026-12-02T08:00:01Z","deletionGracePeriodSeconds":30}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","name":"b"}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","status":{"phase":"Run\xffning"}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","status":{"phase":5,"conditions":[{"lastTransitionTime":5}]}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","spec":null,"status":null,"metadata":null}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1"}} x`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","status":{"conditions":[{"lastTransitionTime":"yesterday"}]}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","status":{"conditions":[{"lastTransitionTime":7}]}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"GONE","object":{"kind":"Pod","apiVersion":"v1"}}`,
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1"}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED"}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Event","apiVersion":"v1","series":{"count":2,"lastObservedTime":"2026-12-02T08:00:01.123456Z"},"count":3,"eventTime":null,"source":{"component":"kubelet","host":"vm"}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Event","apiVersion":"v1","series":null,"eventTime":"2026-12-02T08:00:01Z","count":true}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Event","apiVersion":"v1","message":"\u001b]52;c;aGk=\u0007 \ud800"}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Event","apiVersion":"v1","involvedObject":{"kind":"Pod","name":"p","uid":"u","fieldPath":"spec.containers{a}"},"metadata":{"name":"e"}}}`,
	`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Job","apiVersion":"batch/v1"}}`,
	`null`,
}

// decodeBoth decodes line with a decoder that reads by the token where it can and one that
// always has the library decode, and reports where they differ.
func decodeBoth(tok, lib *lineDecoder, line []byte) (viaTokens bool, diff string) {
	var l wireLine
	l.Object = wireObject{specs: &tok.specs, slim: tok.slim}
	viaTokens = tok.tokenLine(line, &l)
	got, gerr := tok.decode(line)
	want, werr := lib.decodeWithLibrary(line)
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		return viaTokens, fmt.Sprintf("error %v, the library's %v", gerr, werr)
	}
	return viaTokens, cmp.Diff(want, got, cmp.AllowUnexported(decoded{}))
}

// TestTokenLineReadsAsLibrary: every line of every embedded recording, of richLines and of
// tokenLineCases decodes (or fails) the same by the token as by the library; and every Pod and
// core/v1 Event the recordings hold is read by the token (the faster way is the one taken).
func TestTokenLineReadsAsLibrary(t *testing.T) {
	inputs := slimInputs(t)
	inputs["cases"] = []byte(headerLine + "\n" + strings.Join(tokenLineCases, "\n") + "\n")
	for name, data := range inputs {
		tok, lib := newSlimLineDecoder(false), newSlimLineDecoder(false)
		lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))[1:] // after the header
		tokens, podsAndEvents := 0, 0
		for i, line := range lines {
			viaTokens, diff := decodeBoth(tok, lib, line)
			if diff != "" {
				t.Errorf("%s line %d: read by the token and by the library differ (-library +token):\n%s", name, i+2, diff)
			}
			if viaTokens {
				tokens++
			}
			if d, err := lib.decodeWithLibrary(line); err == nil {
				switch d.Item.Object.(type) {
				case *corev1.Pod, *corev1.Event:
					podsAndEvents++
				}
			}
		}
		if name != "cases" && tokens != podsAndEvents {
			t.Errorf("%s: %d lines read by the token, of %d Pods and Events", name, tokens, podsAndEvents)
		}
		if name == "cases" && (tokens == 0 || tokens == len(lines)) {
			t.Errorf("cases: %d of %d lines read by the token: the cases no longer try both ways", tokens, len(lines))
		}
	}
}

// FuzzTokenLine: any line decodes, or fails with the same error, by the token as by the library.
func FuzzTokenLine(f *testing.F) {
	for _, c := range tokenLineCases {
		f.Add([]byte(c))
	}
	paths, err := filepath.Glob(filepath.Join("..", "recordings", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		f.Fatal("no recordings", err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n"))[1:] {
			f.Add(line)
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		tok, lib := newSlimLineDecoder(false), newSlimLineDecoder(false)
		if _, diff := decodeBoth(tok, lib, line); diff != "" {
			t.Errorf("%q: read by the token and by the library differ (-library +token):\n%s", line, diff)
		}
	})
}
