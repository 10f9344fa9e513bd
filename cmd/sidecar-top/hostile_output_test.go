package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
)

// checkNoForeignControls fails the test if out holds a character a terminal obeys or that
// changes how text reads: a C0 control other than newline, DEL, a C1 control, a byte that is
// not UTF-8, or a format character (bidi overrides and isolates, zero-width characters). With
// sgr, an escape is allowed as the start of a colour or attribute (ESC [ digits and ; m), the
// only sequence lipgloss writes in styled output; any other is the text's own.
func checkNoForeignControls(t *testing.T, what, out string, sgr bool) {
	t.Helper()
	for i := 0; i < len(out); {
		if sgr && out[i] == 0x1b {
			j := i + 1
			if j < len(out) && out[j] == '[' {
				j++
				for j < len(out) && (out[j] >= '0' && out[j] <= '9' || out[j] == ';') {
					j++
				}
				if j < len(out) && out[j] == 'm' {
					i = j + 1
					continue
				}
			}
			t.Errorf("%s: an escape sequence that is not a colour at %d: %q", what, i, around(out, i))
			return
		}
		r, size := utf8.DecodeRuneInString(out[i:])
		var bad string
		switch {
		case r == utf8.RuneError && size == 1:
			bad = fmt.Sprintf("the byte %#x, not UTF-8", out[i])
		case r == '\n':
		case r < 0x20 || r == 0x7f:
			bad = fmt.Sprintf("the control %#x", r)
		case r >= 0x80 && r <= 0x9f:
			bad = fmt.Sprintf("the C1 control %U", r)
		case unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp):
			bad = fmt.Sprintf("the format character %U", r)
		}
		if bad != "" {
			t.Errorf("%s: %s at %d: %q", what, bad, i, around(out, i))
			return
		}
		i += size
	}
}

// checkReached fails the test if the hostile text did not reach out, escaped: an output that
// dropped it would pass checkNoForeignControls and prove nothing.
func checkReached(t *testing.T, what, out string) {
	t.Helper()
	if !strings.Contains(out, marker) || !strings.Contains(out, `\x1b]52`) {
		t.Errorf("%s does not show the hostile text escaped (%s ... \\x1b]52):\n%s", what, marker, out)
	}
}

func around(s string, i int) string { return s[max(i-40, 0):min(i+40, len(s))] }

// TestNoForeignControls: hostile text in every field a recording (or the API server) can set
// goes through every output path, and none writes a control character, escape sequence or
// bidi or zero-width character that sidecar-top did not generate: plain lines, --summary,
// --explain, findings, warnings and errors on standard error, the Markdown, SVG and Perfetto
// exports, check's and diff's reports, and the view, in colour, at several sizes and with its
// panes open. The JSON outputs (-o json, a recording, which -o - writes to standard output)
// keep the text as it was, what a terminal could obey spelled as JSON escapes.
func TestNoForeignControls(t *testing.T) {
	crash, job := hostileRecording(t, "crashing-sidecar", 1), hostileRecording(t, "job-native-sidecar", 3)

	t.Run("plain, --summary, --explain, findings", func(t *testing.T) {
		for _, args := range [][]string{
			{"replay", crash, "--plain"},
			{"replay", crash, "--plain", "--explain", "--summary"},
			{"replay", job, "--plain", "--explain", "--summary"},
		} {
			code, stdout, stderr := runCmd(t, args...)
			what := strings.Join(args[2:], " ")
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", what, code, stderr)
			}
			checkNoForeignControls(t, what+": standard output", stdout, false)
			checkNoForeignControls(t, what+": standard error", stderr, false)
			checkReached(t, what, stdout)
		}
		_, stdout, _ := runCmd(t, "replay", crash, "--plain")
		if !strings.Contains(stdout, "warning: ") {
			t.Errorf("no finding printed: the crash loop's finding did not reach plain output:\n%s", stdout)
		}
		_, stdout, _ = runCmd(t, "replay", job, "--plain", "--summary", "--explain")
		for _, want := range []string{"summary", "why:"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("--summary --explain printed no %q:\n%s", want, stdout)
			}
		}
	})

	t.Run("exports", func(t *testing.T) {
		for _, rec := range []string{crash, job} {
			for _, format := range []string{"markdown", "svg", "perfetto"} {
				code, stdout, stderr := runCmd(t, "export", rec, "--format", format)
				what := filepath.Base(rec) + " as " + format
				if code != 0 {
					t.Fatalf("%s: exit %d: %s", what, code, stderr)
				}
				checkNoForeignControls(t, what, stdout, false)
				checkNoForeignControls(t, what+": standard error", stderr, false)
				if !strings.Contains(stdout, marker) {
					t.Errorf("%s does not show the hostile text", what)
				}
			}
		}
	})

	t.Run("check and diff", func(t *testing.T) {
		for _, args := range [][]string{
			{"check", crash, "--assert", "count(findings, warning) == 0"},
			{"check", crash, "--assert", "app.restarts == 0", "--junit", filepath.Join(t.TempDir(), "junit.xml")},
			{"diff", crash, hostileRecording(t, "crashing-sidecar", 1)},
			{"diff", job, crash},
		} {
			_, stdout, stderr := runCmd(t, args...)
			what := strings.Join(args, " ")
			checkNoForeignControls(t, what+": standard output", stdout, false)
			checkNoForeignControls(t, what+": standard error", stderr, false)
			if args[0] == "diff" {
				checkReached(t, what, stdout)
			}
		}
	})

	t.Run("JSON keeps the text", func(t *testing.T) {
		code, stdout, stderr := runCmd(t, "replay", crash, "-o", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		checkNoForeignControls(t, "-o json", stdout, false)
		var doc struct {
			Namespace string
			Events    []struct{ Reason string }
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		want := strings.ReplaceAll(hostileText, rawBytes, "\ufffd\ufffd\ufffd") // as the decoder read the bytes
		if doc.Namespace != want {
			t.Errorf("-o json's namespace %q, want the recording's %q", doc.Namespace, want)
		}

		// A recording (record -o - writes it to standard output) keeps the text, escaped.
		var rec bytes.Buffer
		r, err := recfile.NewRecorder(&rec, recfile.Header{Namespace: hostileText, Target: "pod/x"})
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(crash)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		_, items, _, err := recfile.ReadAll(f, crash)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			if err := r.Write(it); err != nil {
				t.Fatal(err)
			}
		}
		checkNoForeignControls(t, "a recording", rec.String(), false)
		h, back, _, err := recfile.ReadAll(&rec, "rec.jsonl")
		if err != nil || len(back) != len(items) || h.Namespace != hostileText {
			t.Errorf("the recording reads back as %d items of %d, namespace %q (%v)", len(back), len(items), h.Namespace, err)
		}
	})

	t.Run("errors and warnings on standard error", func(t *testing.T) {
		bad := writeFile(t, "bad.jsonl", `{"kind":"SidecarTopRecording","version":1,"namespace":"x","target":"pod/x","startTime":"2026-12-02T08:00:00Z"}
{"time":"`+strings.ReplaceAll(hostileText, rawBytes, "")+`","type":"ADDED","object":{"kind":"Pod"}}
`)
		badVersion := writeFile(t, "v.jsonl", `{"kind":"SidecarTopRecording","version":"\u001b]52;c;eA==\u0007\u009b2J\u202e","target":"pod/x"}`+"\n")
		text, status := kubeconfig(t, hostileServer(t, false)), kubeconfig(t, hostileServer(t, true))
		for _, args := range [][]string{
			{"replay", bad},
			{"replay", badVersion},
			{"replay", filepath.Join(t.TempDir(), hostileText+".jsonl")},
			{"check", crash, "--assert", "nosuch.start - app.start < 1s"}, // names the recording's containers
			{"--kubeconfig", text, "pod/x", "--plain"},
			{"--kubeconfig", status, "pod/x", "--plain"},
			{"record", "--kubeconfig", status, "pod/x", "--output-file", filepath.Join(t.TempDir(), "r.jsonl")},
		} {
			code, stdout, stderr := runCmd(t, args...)
			what := strings.Join(args, " ")
			if code == 0 || stderr == "" {
				t.Errorf("%s: exit %d, standard error %q; want an error", what, code, stderr)
			}
			checkNoForeignControls(t, what+": standard output", stdout, false)
			checkNoForeignControls(t, what+": standard error", stderr, false)
		}

		var errOut bytes.Buffer
		warn := warnTo(streams{IOStreams: genericiooptions.IOStreams{ErrOut: &errOut}})
		warn(play.Frame{WatchErr: errors.New("list pods: " + hostileText + "\nsecond line")})
		checkNoForeignControls(t, "a watch warning", errOut.String(), false)
		checkReached(t, "a watch warning", errOut.String())
	})

	t.Run("view", func(t *testing.T) {
		for _, path := range []string{crash, job} {
			m := hostileView(t, path)
			for _, size := range [][2]int{{200, 60}, {120, 40}, {80, 24}, {60, 16}} {
				var v tea.Model = m
				v, _ = v.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				seen := ""
				for _, keys := range []string{"", "j", "j", "n", "n", "S", "S", "tab", "?", "?"} {
					for _, k := range keys {
						v, _ = v.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{k}})
					}
					out := v.View()
					what := fmt.Sprintf("%s %dx%d after %q", filepath.Base(path), size[0], size[1], keys)
					checkNoForeignControls(t, what, out, true)
					seen += out
				}
				checkReached(t, fmt.Sprintf("the view of %s at %dx%d", filepath.Base(path), size[0], size[1]), seen)
			}
		}
	})
}
