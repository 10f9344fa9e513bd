package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/sidecar-top/sidecar-top/junit"
	"github.com/sidecar-top/sidecar-top/recordings"
)

// recordingFile writes the embedded recordings, one after another (the later ones without
// their header line), to a file, and returns its path.
func recordingFile(t *testing.T, names ...string) string {
	t.Helper()
	var b strings.Builder
	for i, name := range names {
		f, err := recordings.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		if i > 0 {
			_, s, _ = strings.Cut(s, "\n")
		}
		b.WriteString(s)
	}
	return writeFile(t, strings.Join(names, "+")+".jsonl", b.String())
}

// verdicts is the report's lines with their spaces collapsed: the columns' widths aside.
func verdicts(stdout string) []string {
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		out = append(out, strings.Join(strings.Fields(line), " "))
	}
	return out
}

// TestCheck: the verdicts and the exit status for assertions about the real recordings. The
// values shown are the assert package's, tested there; here whole lines are compared where
// they are exact (counts).
func TestCheck(t *testing.T) {
	startup := recordingFile(t, "startup-probe")
	crashing := recordingFile(t, "crashing-sidecar")
	jobs := recordingFile(t, "job-native-sidecar", "job-classic-sidecar")
	tests := []struct {
		name     string
		args     []string
		code     int
		verdicts []string // verdict and assertion, then the value: a prefix of the line
		stderr   string
	}{
		{"all hold", []string{"check", startup,
			"--assert", "app.start - sidecar.started < 3s",
			"--assert", `gap("init-sleep exit -> sidecar start") < 2s`,
			"-a", "sidecar.restarts == 0 && count(findings, warning) == 0"}, 0, []string{
			"pass app.start - sidecar.started < 3s 0.25s",
			`pass gap("init-sleep exit -> sidecar start") < 2s 1.11s`,
			"pass sidecar.restarts == 0 && count(findings, warning) == 0 0 == 0; 0 == 0",
		}, ""},
		{"one fails", []string{"check", crashing, "-a", "sidecar.restarts == 0", "-a", "app.restarts == 0"}, 1, []string{
			"FAIL sidecar.restarts == 0 4 == 0",
			"pass app.restarts == 0 0 == 0",
		}, "sidecar-top: 1 of 2 assertions failed\n"},
		{"uncertain fails", []string{"check", startup, "-a", "app.start - sidecar.started < 1s"}, 1, []string{
			"uncertain app.start - sidecar.started < 1s 0.25s",
		}, "sidecar-top: 1 of 1 assertions failed (1 uncertain: the bounds allow both; --allow-uncertain passes them)\n"},
		{"uncertain allowed", []string{"check", startup, "-a", "app.start - sidecar.started < 1s", "--allow-uncertain"}, 0, []string{
			"uncertain app.start - sidecar.started < 1s 0.25s",
		}, ""},
		{"missing milestone", []string{"check", startup, "-a", "app.restart[1] - app.exit[0] > 10s"}, 1, []string{
			"FAIL app.restart[1] - app.exit[0] > 10s no app.restart[1]",
		}, "sidecar-top: 1 of 1 assertions failed\n"},
		{"several pods", []string{"check", jobs,
			"-a", "main.exit - main.start < 10s",
			"-a", "sidecar.exit - main.exit < 5s",
			"-a", "count(findings, warning) == 0"}, 1, []string{
			"pass main.exit - main.start < 10s pod sc-b1-69jc7: 2.99s",
			"FAIL sidecar.exit - main.exit < 5s pod sc-b1-69jc7: 30.",
			"FAIL count(findings, warning) == 0 pod sc-b1-69jc7: ",
		}, "sidecar-top: 2 of 3 assertions failed\n"},
		{"standard input", []string{"check", "-", "-a", "sidecar.restarts == 0"}, 0, []string{
			"pass sidecar.restarts == 0 0 == 0",
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var code int
			var stdout, stderr string
			if tt.args[1] == "-" {
				code, stdout, stderr = runCmdIn(t, startup, tt.args...)
			} else {
				code, stdout, stderr = runCmd(t, tt.args...)
			}
			if code != tt.code || stderr != tt.stderr {
				t.Errorf("exit %d, stderr %q; want %d, %q", code, stderr, tt.code, tt.stderr)
			}
			got := verdicts(stdout)
			if len(got) != len(tt.verdicts) {
				t.Fatalf("report:\n%s\nwant lines beginning:\n%s", stdout, strings.Join(tt.verdicts, "\n"))
			}
			for i, want := range tt.verdicts {
				if !strings.HasPrefix(got[i], want) {
					t.Errorf("line %d: %q, want it to begin %q", i+1, got[i], want)
				}
			}
		})
	}
}

// runCmdIn is runCmd with the file's content as standard input.
func runCmdIn(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	f, err := os.Open(stdin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	var out, errOut bytes.Buffer
	code = run(args, streams{IOStreams: genericiooptions.IOStreams{In: f, Out: &out, ErrOut: &errOut}})
	return code, out.String(), errOut.String()
}

// TestCheckBad: a check that cannot be made exits 2, with one line that says why and, for a
// bad assertion, where.
func TestCheckBad(t *testing.T) {
	startup := recordingFile(t, "startup-probe")
	empty := writeFile(t, "events.jsonl", `{"kind":"SidecarTopRecording","version":1,"namespace":"x","target":"pod/x","startTime":"2026-12-02T08:00:00Z"}
`)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"check", startup}, "check needs at least one --assert EXPR"},
		{[]string{"check", startup, "-a", "app.strat - sidecar.started < 3s"}, `--assert "app.strat - sidecar.started < 3s": column 5: unknown milestone kind "strat"`},
		{[]string{"check", startup, "-a", "ap.start - sidecar.started < 3s"}, `--assert "ap.start - sidecar.started < 3s": column 1: unknown container "ap": the pods have app, init-sleep, sidecar`},
		{[]string{"check", startup, "-a", "app.exit - app.sigterm < 3sec"}, `column 26: bad duration "3sec"`},
		{[]string{"check", startup, "-a", "(app.exit - app.sigterm < 3s"}, "column 1: this ( is never closed"},
		{[]string{"check", startup, "-a", "app.start < sidecar.restarts"}, "column 11: cannot compare a time (app.start) with a count (sidecar.restarts)"},
		// A container the recording's pods lack is said before the type error in the same assertion.
		{[]string{"check", startup, "-a", "proxy.start < 3s"}, `--assert "proxy.start < 3s": column 1: unknown container "proxy": the pods have app, init-sleep, sidecar; and column 13: cannot compare a time (proxy.start) with a duration (3s)`},
		{[]string{"check", startup, "-a", "count(findings) == 0", "-a", "app.start"}, `--assert "app.start": column 1: the assertion is a time, not true or false`},
		{[]string{"check", startup, "-a", "count(findings) == 0", "--until", "complete"}, "--until and --timeout are for a live target"},
		{[]string{"check", "/does/not/exist.jsonl", "-a", "count(findings) == 0"}, "no such file"},
		{[]string{"check", empty, "-a", "count(findings) == 0"}, "events.jsonl: no pod in the recording"},
		{[]string{"check", startup, "-a", "count(findings) == 0", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"check", "job/x", "-a", "count(findings) == 0"}, "no Kubernetes configuration"},
		{[]string{"check", "job/x", "-a", "count(findings) == 0", "--until", "never"}, `--until "never"`},
		{[]string{"check", "svc/x", "-a", "count(findings) == 0"}, `cannot watch "svc"`},
		{[]string{"check", "a", "b", "-a", "count(findings) == 0"}, "one target at a time"},
		{[]string{"check", startup, "-a", "count(findings) == 0", "--junit", filepath.Join(t.TempDir(), "no", "dir", "r.xml")}, "there is no directory"}, // said before the run
		// A long assertion is quoted around its column, not whole (it was: 72 KB of error).
		{[]string{"check", startup, "-a", strings.Repeat("app.restarts == 0 && ", 3000) + "x"}, `(63001 characters; from column 62902): column 63001: x alone is not a value`},
		{[]string{"check", startup, "-a", "x" + strings.Repeat(" && app.restarts == 0", 3000)}, `--assert "x && app.restarts`},
	}
	for _, tt := range tests {
		name := strings.Join(tt.args, " ")
		if len(name) > 200 {
			name = name[:200]
		}
		t.Run(name, func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			if code != 2 {
				t.Errorf("exit status %d, want 2", code)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, tt.want) || len(stderr) > 500 {
				t.Errorf("stderr = %q, want one line containing %q", stderr, tt.want)
			}
		})
	}
}

// TestCheckJUnit: the report has a testcase per assertion, with every pod's value, and a
// failure for each that does not pass.
func TestCheckJUnit(t *testing.T) {
	jobs := recordingFile(t, "job-native-sidecar", "job-classic-sidecar")
	path := filepath.Join(t.TempDir(), "report.xml")
	code, _, _ := runCmd(t, "check", jobs, "--junit", path,
		"-a", "main.restarts + sidecar.restarts == 0",
		"-a", "sidecar.restarts == 0 && main.restarts > 0",
		"-a", "pod.deleted > pod.created")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), xml.Header) {
		t.Errorf("no XML header: %.60q", b)
	}
	var got junit.Report
	if err := xml.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := junit.Report{
		XMLName: xml.Name{Local: "testsuites"}, Tests: 3, Failures: 2,
		Suites: []junit.Suite{{
			Name: "sidecar-top check " + jobs, Tests: 3, Failures: 2,
			Cases: []junit.Case{
				{Name: "main.restarts + sidecar.restarts == 0", Classname: "sidecar-top.check",
					SystemOut: "pod sc-b1-69jc7: pass: 0 == 0\npod sc-b2-5rf6w: pass: 0 == 0"},
				{Name: "sidecar.restarts == 0 && main.restarts > 0", Classname: "sidecar-top.check",
					Failure: &junit.Failure{
						Message: "false: pod sc-b1-69jc7: 0 == 0; 0 > 0 (2 of 2 pods fail)", Type: "false",
						Text: "pod sc-b1-69jc7: FAIL: 0 == 0; 0 > 0\npod sc-b2-5rf6w: FAIL: 0 == 0; 0 > 0",
					},
					SystemOut: "pod sc-b1-69jc7: FAIL: 0 == 0; 0 > 0\npod sc-b2-5rf6w: FAIL: 0 == 0; 0 > 0"},
				{Name: "pod.deleted > pod.created", Classname: "sidecar-top.check",
					Failure: &junit.Failure{
						Message: "false: pod sc-b1-69jc7: no pod.deleted (2 of 2 pods fail)", Type: "false",
						Text: "pod sc-b1-69jc7: FAIL: no pod.deleted\npod sc-b2-5rf6w: FAIL: no pod.deleted",
					},
					SystemOut: "pod sc-b1-69jc7: FAIL: no pod.deleted\npod sc-b2-5rf6w: FAIL: no pod.deleted"},
			},
		}},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("-got +want:\n%s", diff)
	}
}

// TestJUnitUntil: live, an --until that was not met is a failing testcase of its own.
func TestJUnitUntil(t *testing.T) {
	src := timelineSource{name: "job/x", live: true, missed: "--timeout 1m0s passed before --until complete was met: the assertions were checked on the timeline so far"}
	got := junitReport(nil, false, src)
	want := junit.Report{Tests: 1, Failures: 1, Suites: []junit.Suite{{
		Name: "sidecar-top check job/x", Tests: 1, Failures: 1,
		Cases: []junit.Case{{Name: "--until", Classname: "sidecar-top.check",
			Failure: &junit.Failure{Message: src.missed, Type: "until", Text: src.missed}}},
	}}}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("-got +want:\n%s", diff)
	}
	if err := checkVerdict(nil, false, src); err == nil || err.(exitCode).code != 1 {
		t.Errorf("checkVerdict = %v, want exit status 1", err)
	}
}

func TestIsRecordingArg(t *testing.T) {
	file := writeFile(t, "run", "x")
	tests := []struct {
		args     []string
		selector string
		want     bool
	}{
		{[]string{file}, "", true},
		{[]string{"-"}, "", true},
		{[]string{"missing.jsonl"}, "", true},
		{[]string{"job/x"}, "", false},
		{[]string{"checkout-7d9f"}, "", false},
		{[]string{t.TempDir()}, "", false},
		{[]string{file}, "app=x", false},
		{nil, "app=x", false},
		{[]string{file, file}, "", false},
	}
	for _, tt := range tests {
		if got := isRecordingArg(tt.args, &kubeOptions{selector: tt.selector}); got != tt.want {
			t.Errorf("isRecordingArg(%q, -l %q) = %v, want %v", tt.args, tt.selector, got, tt.want)
		}
	}
}
