//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
)

// osc52Escaped is the clipboard write that every hostile text of the scenario starts with, as
// sidecar-top shows it: escaped.
const osc52Escaped = `\x1b]52;c;cm0gLXJmIH4vKgo=`

// TestHostileTextFromTheCluster: a pod's containers write terminal escapes (OSC 52, a CSI that
// clears the screen, a C1 CSI) and a bidi override where the cluster carries them on as they are:
// a readiness probe's output (the kubelet's Unhealthy Events), log lines and a termination
// message. Recorded with the log lines' text, then shown every way sidecar-top shows a
// timeline: the recorder's plain lines, replay --plain --explain --summary, the Markdown and
// SVG exports, and the live view on a terminal. None writes a control character, an escape it
// did not make or a bidi override; the plain lines and the report show the text escaped; the
// recording and -o json keep it as it was.
func TestHostileTextFromTheCluster(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	r, err := env.NewRun(ctx, "hostile", "hostile")
	if err != nil {
		t.Fatal(err)
	}
	keep(t, r)
	if err := r.StartRecord(ctx, "pod/hostile", "--until", "deleted", "--timeout", "2m", "--record-log-text",
		"--mark", "app:drained=drained"); err != nil {
		t.Fatal(err)
	}
	if err := r.Apply(ctx, "hostile"); err != nil {
		t.Fatal(err)
	}
	if err := waitUnhealthy(ctx, r.Kubectl, 90*time.Second); err != nil {
		t.Fatal(err)
	}
	view := startView(t, r, "pod/hostile")
	time.Sleep(3 * time.Second) // a few of the probe's Events reach the view
	view.stop(t, 0)
	if err := r.Delete(ctx, "hostile"); err != nil {
		t.Fatal(err)
	}
	// The cluster carried the text as the containers wrote it, or this test proves nothing: the
	// recording holds the probe's output in an Event, a log line and the termination message, as
	// JSON escapes; -o json keeps the Event's.
	rec := finishedRecording(t, r, `Readiness probe failed: not yet \u001b]52`, `drained \u001b]52`, `stopped \u001b]52`)
	if want := `not yet \u001b]52`; !bytes.Contains(r.JSON, []byte(want)) {
		t.Errorf("replay -o json does not keep the probe's output as it was (%s)", want)
	}
	checkInertText(t, "the recording", string(rec))

	outputs := shown(t, r)
	outputs["the live view"] = view.out.String()
	for name, out := range outputs {
		if name == "the live view" {
			// The view draws with escapes of its own: it must write none of the containers'.
			for _, bad := range []string{"\x1b]52", "\u009b", "\u202e", "\x07"} {
				if i := strings.Index(out, bad); i >= 0 {
					t.Errorf("%s wrote the containers' %q: %q", name, bad, out[max(i-60, 0):min(i+60, len(out))])
				}
			}
			continue
		}
		checkInertText(t, name, out)
	}
	for _, name := range []string{"replay --plain --explain --summary", "export --format markdown"} {
		if !strings.Contains(outputs[name], osc52Escaped) {
			t.Errorf("%s does not show the containers' text escaped (%s):\n%s", name, osc52Escaped, tail(outputs[name], 3000))
		}
	}
	// The view's Events pane shows the probe's output, escaped (NO_COLOR: no style inside it).
	if screen := view.out.String(); !strings.Contains(screen, `not yet \x1b]52`) {
		t.Errorf("the live view does not show the probe's output escaped (not yet \\x1b]52):\n%s", tail(screen, 3000))
	}
}

// TestHostileJobCondition: a condition that a client adds to a Job's status while it runs, of a
// type, reason and message holding terminal escapes and a bidi override (the API server takes
// any type), is shown inert by the recorder's plain lines, replay --plain and the exports, and
// escaped in the plain lines and the Markdown report's milestone table.
func TestHostileJobCondition(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	r, err := env.NewRun(ctx, "hostile-job", "hostile-job")
	if err != nil {
		t.Fatal(err)
	}
	keep(t, r)
	if err := r.StartRecord(ctx, "job/hostile-job", "--until", "complete", "--timeout", "2m"); err != nil {
		t.Fatal(err)
	}
	if err := r.Apply(ctx, "hostile-job"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second) // the Job has been seen, its pod runs
	// A strategic merge: the list is merged by type, beside the job controller's conditions.
	patch := `{"status":{"conditions":[{"type":"Audited\u001b]52;c;cm0gLXJmIH4vKgo=\u0007\u202egpj.exe","status":"True",` +
		`"lastTransitionTime":"` + time.Now().UTC().Format(time.RFC3339) + `","reason":"Hold\u001b[2J","message":"by \u009b2J"}]}}`
	if _, err := r.Kubectl(ctx, "patch", "job", "hostile-job", "--subresource=status", "-p", patch); err != nil {
		t.Fatal(err)
	}
	finishedRecording(t, r, `Audited\u001b]52`)
	outputs := shown(t, r)
	for name, out := range outputs {
		checkInertText(t, name, out)
	}
	for _, name := range []string{"record's plain lines", "replay --plain --explain --summary", "export --format markdown"} {
		if !strings.Contains(outputs[name], "job Audited") || !strings.Contains(outputs[name], `52;c;cm0gLXJmIH4vKgo=`) {
			t.Errorf("%s does not show the condition, escaped:\n%s", name, tail(outputs[name], 3000))
		}
	}
}

// finishedRecording finishes r and is its recording, which must hold each of wants (as the
// recording writes it, JSON-escaped): else the cluster did not carry the hostile text, and the
// test could prove nothing.
func finishedRecording(t *testing.T, r *harness.Run, wants ...string) []byte {
	t.Helper()
	if err := r.Finish(t.Context(), 0, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	rec, err := os.ReadFile(r.Record.Path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range wants {
		if !bytes.Contains(rec, []byte(want)) {
			t.Fatalf("SCENARIO BROKEN: the recording has no %s", want)
		}
	}
	return rec
}

// shown is what sidecar-top showed of a run, and shows of its recording, each way a test can
// read: the recorder's plain lines, replay --plain --explain --summary, the Markdown and SVG
// exports; with their standard error.
func shown(t *testing.T, r *harness.Run) map[string]string {
	t.Helper()
	path := r.Record.Path
	out := map[string]string{"record's plain lines": r.Record.Stdout(), "record's standard error": r.Record.Stderr()}
	for name, args := range map[string][]string{
		"replay --plain --explain --summary": {"replay", path, "--plain", "--explain", "--summary"},
		"export --format markdown":           {"export", path, "--format", "markdown"},
		"export --format svg":                {"export", path, "--format", "svg"},
	} {
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(t.Context(), env.Binary, args...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("sidecar-top %s: %v: %s", strings.Join(args, " "), err, stderr.String())
		}
		out[name], out[name+": standard error"] = stdout.String(), stderr.String()
	}
	return out
}

// waitUnhealthy waits until the pod's readiness probe has failed (an Unhealthy Event).
func waitUnhealthy(ctx context.Context, kubectl func(context.Context, ...string) (string, error), limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		out, err := kubectl(ctx, "get", "events", "--field-selector", "involvedObject.name=hostile,reason=Unhealthy",
			"-o", "jsonpath={.items[*].reason}")
		if err == nil && strings.Contains(out, "Unhealthy") {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no Unhealthy Event of pod hostile within %s (last: %q, %v)", limit, out, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// checkInertText fails if out holds a control character other than newline and tab, a C1
// control, a bidi override or bytes that are not UTF-8: what a terminal could obey.
func checkInertText(t *testing.T, what, out string) {
	t.Helper()
	for i, c := range out {
		if c == utf8.RuneError || (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || (c >= 0x80 && c < 0xa0) ||
			(c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) {
			t.Errorf("%s holds %U: %q", what, c, out[max(i-60, 0):min(i+60, len(out))])
			return
		}
	}
}
