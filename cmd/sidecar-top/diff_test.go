package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/sidecar-top/sidecar-top/compare"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// rowVerdicts is each gap row of a plain diff, its name and its verdict.
func rowVerdicts(stdout string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(stdout, "\n") {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), "  ")
		if !ok || !strings.Contains(name, "→") {
			continue
		}
		for _, v := range []string{"longer", "shorter", "within bounds", "only in A", "only in B"} {
			if strings.HasSuffix(strings.TrimSpace(rest), v) || strings.Contains(rest, "  "+v+"  ") {
				out[name] = v
			}
		}
	}
	return out
}

// TestDiffRecordings: the real recordings of a pod that drains for 3 s and of one that stops
// at once differ, in the gaps where they should, beyond their bounds.
func TestDiffRecordings(t *testing.T) {
	a, b := recordingFile(t, "startup-probe"), recordingFile(t, "termination-order")
	code, stdout, stderr := runCmd(t, "diff", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"A: " + a + " (pod/sc-a)\n", "B: " + b + " (pod/sc-c)\n", "pod sc-a (A) and sc-c (B)\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	got := rowVerdicts(stdout)
	for name, want := range map[string]string{
		"init-sleep exit → sidecar start": "only in A",     // sc-c has no init container
		"sidecar start → sidecar started": "shorter",       // sc-a's startup probe held it ~4 s
		"app SIGTERM → app exit":          "longer",        // sc-c's app drains for 3 s
		"sidecar started → app start":     "within bounds", // the same kubelet step in both
	} {
		if got[name] != want {
			t.Errorf("%s: %q, want %q\n%s", name, got[name], want, stdout)
		}
	}

	// JSON: the same comparison, each change B - A with bounds from both sides.
	code, stdout, stderr = runCmd(t, "diff", a, b, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var d compare.Diff
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	if d.Kind != "SidecarTopDiff" || d.By != "order" || len(d.Pairs) != 1 || d.Pairs[0].A != "sc-a" || d.Pairs[0].B != "sc-c" || d.TargetA != "pod/sc-a" {
		t.Fatalf("got %+v", d)
	}
	for _, r := range d.Pairs[0].Gaps {
		if r.Shift != got[r.Name] {
			t.Errorf("%s: JSON says %q, the table %q", r.Name, r.Shift, got[r.Name])
		}
		if r.A == nil || r.B == nil {
			continue
		}
		want := timeline.Span{Value: r.B.Span.Value - r.A.Span.Value, Min: r.B.Span.Min - r.A.Span.Max, Max: r.B.Span.Max - r.A.Span.Min}
		if r.Change == nil || *r.Change != want {
			t.Errorf("%s: change %+v, want %+v", r.Name, r.Change, want)
		}
	}
}

// TestDiffYAML: -o yaml prints the document -o json prints, spelled as YAML, as kubectl's -o
// does wherever a document is printed.
func TestDiffYAML(t *testing.T) {
	a, b := recordingFile(t, "startup-probe"), recordingFile(t, "termination-order")
	_, js, _ := runCmd(t, "diff", a, b, "-o", "json")
	code, ys, stderr := runCmd(t, "diff", a, b, "-o", "yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var fromJSON, fromYAML any
	if err := json.Unmarshal([]byte(js), &fromJSON); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(ys), &fromYAML); err != nil {
		t.Fatalf("-o yaml is not YAML: %v\n%s", err, ys)
	}
	if !strings.HasPrefix(ys, "kind: SidecarTopDiff\n") {
		t.Errorf("-o yaml starts %.80q", ys)
	}
	if diff := cmp.Diff(fromYAML, fromJSON); diff != "" {
		t.Errorf("-o yaml differs from -o json (-yaml +json):\n%s", diff)
	}
}

// TestDiffJob: a Job's two pods against one are compared as distributions.
func TestDiffJob(t *testing.T) {
	two, one := recordingFile(t, "job-native-sidecar", "job-classic-sidecar"), recordingFile(t, "job-native-sidecar")
	code, stdout, stderr := runCmd(t, "diff", two, one)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "gaps over all pods") || !strings.Contains(stdout, "PODS A/B") {
		t.Errorf("not a distribution:\n%s", stdout)
	}
	// The classic pod has no named gaps, so each gap has one pod a side, the same pod.
	got := rowVerdicts(stdout)
	if len(got) == 0 {
		t.Fatalf("no gap rows:\n%s", stdout)
	}
	for name, v := range got {
		if v != "within bounds" {
			t.Errorf("%s: %q, want within bounds (the same pod on both sides)", name, v)
		}
	}
}

func TestDiffBad(t *testing.T) {
	a := recordingFile(t, "startup-probe")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"diff", a}, "accepts 2 arg(s)"},
		{[]string{"diff", a, a, "-o", "text"}, `-o "text": want json or yaml`},
		{[]string{"diff", "-", "-"}, "only one of A and B can be standard input"},
		{[]string{"diff", a, "/does/not/exist.jsonl"}, "no such file"},
		{[]string{"diff", a, a, "--by", "pods"}, `--by "pods": want auto, name, order or gap`},
		{[]string{"diff", "--exit-code", a}, "accepts 2 arg(s)"},
		{[]string{"diff", "--exit-code=maybe", a, a}, `invalid argument "maybe" for "--exit-code"`},
		{[]string{"diff", "--exit-code", "--no-such-flag", a, a}, "unknown flag: --no-such-flag"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and one line containing %q", code, stderr, tt.want)
			}
		})
	}
}

// TestDiffExitCode: --exit-code exits 1 when the recordings differ, as git diff does, and 0
// when they do not; without it diff exits 0 whatever it finds.
func TestDiffExitCode(t *testing.T) {
	a, b := recordingFile(t, "startup-probe"), recordingFile(t, "termination-order")
	tests := []struct {
		args     []string
		code     int
		stderrIs string
	}{
		{[]string{"diff", "--exit-code", a, a}, 0, ""},
		{[]string{"diff", "--exit-code", a, b}, 1, "sidecar-top: the recordings differ (--exit-code)\n"},
		{[]string{"diff", a, b}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCmd(t, tt.args...)
			if code != tt.code || stderr != tt.stderrIs {
				t.Errorf("exit %d, stderr %q; want %d, %q", code, stderr, tt.code, tt.stderrIs)
			}
			if !strings.Contains(stdout, "VERDICT") {
				t.Errorf("no comparison printed:\n%s", stdout)
			}
		})
	}
}

// TestDiffEnds: a native sidecar's Job completes and the same Job with a classic sidecar never
// does; diff says so of the Job and of its pod, beside the gaps only A has.
func TestDiffEnds(t *testing.T) {
	a, b := recordingFile(t, "job-native-sidecar"), recordingFile(t, "job-classic-sidecar")
	code, stdout, stderr := runCmd(t, "diff", "--exit-code", a, b)
	if code != 1 {
		t.Fatalf("exit %d, stderr %q; want 1 (the recordings differ)", code, stderr)
	}
	for _, want := range []string{
		"ended on one side only\n",
		"  job sc-b1 (A)        ended Complete at +37.67s",
		"  job sc-b2 (B)        never ended: the recording ends with it Running (warning: classic-sidecar-blocks)\n",
		"  pod sc-b1-69jc7 (A)  ended Succeeded at +36.65s",
		"  pod sc-b2-5rf6w (B)  never ended: the recording ends with it NotReady (warning: classic-sidecar-blocks)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	_, stdout, _ = runCmd(t, "diff", "-o", "json", a, b)
	var d compare.Diff
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Ends) != 2 || d.Ends[0].Object != "job" || !d.Ends[0].EndA.Ended || d.Ends[0].EndB.Ended || d.Ends[0].EndA.How != "Complete" ||
		d.Ends[1].Object != "pod" || d.Ends[1].EndB.How != "NotReady" {
		t.Errorf("ends: %+v", d.Ends)
	}
}

// TestDiffFailOn: a threshold fails only where the change is certainly beyond it; one the
// bounds cannot decide is said and passes; a gap neither recording has is named unknown.
func TestDiffFailOn(t *testing.T) {
	a, b := recordingFile(t, "startup-probe"), recordingFile(t, "termination-order")
	tests := []struct {
		threshold string
		code      int
		verdict   string // the verdict on the threshold's line
		stderr    string
	}{
		// sc-a's startup probe held its sidecar 2.4 to 4.5 s; sc-c's none: -4.36 s [-4.54, -2.08].
		{"sidecar start → sidecar started < -50%", 1, "fails",
			"sidecar-top: 1 of 1 --fail-on checks failed: sidecar start → sidecar started < -50% (pods sc-a and sc-c: -4.36s [-4.54s, -2.08s], -100%)\n"},
		{"sidecar start -> sidecar started < -2s", 1, "fails", "failed: sidecar start -> sidecar started < -2s"},
		{"sidecar start → sidecar started > +0%", 0, "passes", ""},
		// The drain grew by 0.99 to 3.48 s: more than 0.5 s for certain, more than 1 s perhaps.
		{"app SIGTERM → app exit > +500ms", 1, "fails", "(pods sc-a and sc-c: +2.74s [+0.99s, +3.48s], +1099%)"},
		{"app SIGTERM → app exit > +1s", 0, "undecided", ""},
		{"Pod Deletion → Last Exit >= +1.5s", 1, "fails", "failed: Pod Deletion → Last Exit >= +1.5s"},
	}
	for _, tt := range tests {
		t.Run(tt.threshold, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, "diff", "--fail-on", tt.threshold, a, b)
			if code != tt.code || !strings.Contains(stderr, tt.stderr) || (tt.stderr == "" && stderr != "") {
				t.Errorf("exit %d, stderr %q; want %d, %q", code, stderr, tt.code, tt.stderr)
			}
			if !strings.Contains(stdout, "\n  "+tt.verdict+" ") || !strings.Contains(stdout, tt.threshold) {
				t.Errorf("no %q line for %q:\n%s", tt.verdict, tt.threshold, stdout)
			}
		})
	}
}

// TestDiffFailOnBad: a bad threshold is refused in one line naming its column before anything is
// read (B does not exist), and a gap neither recording has is named unknown; both exit 2.
func TestDiffFailOnBad(t *testing.T) {
	a := recordingFile(t, "startup-probe")
	tests := []struct {
		threshold, b, want string
	}{
		{"sidecar started → app start", "/does/not/exist", `--fail-on "sidecar started → app start": column 28: want GAP OP CHANGE`},
		{"sidecar started → app start > 20", "/does/not/exist", `column 31: "20" is not a change: want a change such as +20% (of A's gap) or +500ms`},
		{"sidecar started → app start > +20 %x", "/does/not/exist", `column 31: "+20%x" is not a change`},
		{"sidecar started → app start >", "/does/not/exist", "column 30: nothing after >"},
		{"> +1s", "/does/not/exist", "column 1: no gap's name before >"},
		{"app start > +1s", "/does/not/exist", "column 1: a gap's name reads FROM → TO"},
		{"sidecar started → app begin > +1s", a, `--fail-on "sidecar started → app begin > +1s": unknown gap "sidecar started → app begin": neither recording has it; they have "init-sleep exit → sidecar start", `},
	}
	for _, tt := range tests {
		t.Run(tt.threshold, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, "diff", "--fail-on", tt.threshold, a, tt.b)
			if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, tt.want) || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and one line containing %q", code, stdout, stderr, tt.want)
			}
		})
	}
}
