package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/export"
)

// recordingPath is a shared real recording, as a user would pass its file.
func recordingPath(name string) string { return filepath.Join("..", "..", "recordings", name+".jsonl") }

// TestExportBadInput: every bad export command line fails with one line saying what is wrong.
func TestExportBadInput(t *testing.T) {
	rec := recordingPath("startup-probe")
	empty := writeFile(t, "empty.jsonl", "")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"export", rec}, "give the format: -o perfetto, markdown, svg or otlp"},
		{[]string{"export", rec, "--format", "png"}, `unknown export format "png"`},
		{[]string{"export", rec, "-o", "png"}, `-o "png": -o is the format (perfetto, markdown, svg or otlp); export's file is --output-file png`},
		{[]string{"export", "-o", "svg"}, "accepts 1 arg(s)"},
		{[]string{"export", rec, "-o", "otlp", "--output-file", "x"}, "writes no file"},
		// The old form, -o FILE, is refused in one line that names --output-file.
		{[]string{"export", rec, "--format", "svg", "-o", "out.svg"}, `-o "out.svg": -o is the format (perfetto, markdown, svg or otlp); export's file is --output-file out.svg`},
		{[]string{"export", rec, "--format", "svg", "-o", "markdown"}, "--format svg and -o markdown: give the format once"},
		{[]string{"export", rec, "--format", "svg", "--otlp-endpoint", "http://x"}, "--otlp-endpoint is for -o otlp"},
		{[]string{"export", rec, "--format", "otlp", "--otlp-endpoint", "ftp://x"}, `--otlp-endpoint "ftp://x"`},
		{[]string{"export", rec, "--format", "svg", "--shift-to-now"}, "--shift-to-now is for -o otlp"},
		// A HOST:PORT that cannot be sent to is refused before the recording is read.
		{[]string{"export", "/does/not/exist.jsonl", "--format", "otlp", "--otlp-endpoint", "localhost:4318/v1/traces"},
			`--otlp-endpoint "localhost:4318/v1/traces": a path needs a scheme: http://localhost:4318/v1/traces or https://`},
		{[]string{"export", "/does/not/exist.jsonl", "--format", "otlp", "--otlp-endpoint", "localhost"}, `--otlp-endpoint "localhost": no port`},
		{[]string{"record", "pod/x", "-o", "x.jsonl", "--export", "otlp=collector"}, `otlp=ENDPOINT "collector": no port`},
		{[]string{"export", rec, "--format", "svg", "--pod", "nope"}, `no pod "nope"`},
		{[]string{"export", filepath.Join(t.TempDir(), "none.jsonl"), "--format", "svg"}, "no such file"},
		{[]string{"export", empty, "--format", "markdown"}, "empty"},
		{[]string{"record", "pod/x", "-o", "x.jsonl", "--export", "svg"}, "want FORMAT=FILE"},
		{[]string{"pod/x", "--export", "gif=x.gif"}, `unknown export format "gif"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCmd(t, tt.args...)
			if code != 1 || stdout != "" || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want 1, nothing, one line with %q", code, stdout, stderr, tt.want)
			}
		})
	}
}

// TestExportWrites: each text format of a recording, to standard output and to --output-file
// FILE, is what the export package writes for it; -o FORMAT and --format FORMAT are the same.
func TestExportWrites(t *testing.T) {
	rec := recordingPath("job-native-sidecar")
	f, err := os.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	in, _, err := exportInput(t.Context(), f, rec)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	in.About.ExportedBy = "sidecar-top " + version
	for _, format := range []export.Format{export.Perfetto, export.Markdown, export.SVG} {
		t.Run(string(format), func(t *testing.T) {
			var want bytes.Buffer
			if err := export.Write(&want, format, in); err != nil {
				t.Fatal(err)
			}
			for _, flag := range []string{"-o", "--format"} {
				code, stdout, stderr := runCmd(t, "export", rec, flag, string(format))
				if code != 0 || stderr != "" {
					t.Fatalf("%s: exit %d, stderr %q", flag, code, stderr)
				}
				if diff := cmp.Diff(stdout, want.String()); diff != "" {
					t.Errorf("%s: standard output (-got +want):\n%s", flag, diff)
				}
			}
			out := filepath.Join(t.TempDir(), "out")
			if code, stdout, stderr := runCmd(t, "export", rec, "-o", string(format), "--output-file", out); code != 0 || stdout != "" || stderr != "" {
				t.Fatalf("--output-file: exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(got), want.String()); diff != "" {
				t.Errorf("--output-file %s (-got +want):\n%s", out, diff)
			}
		})
	}
}

// TestExportPod: --pod keeps the one pod, by name or UID, and its job.
func TestExportPod(t *testing.T) {
	rec := recordingPath("job-native-sidecar")
	for _, pod := range []string{"sc-b1-69jc7", "0541f2e0-7070-4888-af1a-8eb9332ae18c"} {
		code, stdout, stderr := runCmd(t, "export", rec, "--format", "markdown", "--pod", pod)
		if code != 0 {
			t.Fatalf("--pod %s: exit %d: %s", pod, code, stderr)
		}
		if !strings.Contains(stdout, "## Pod `sc-b1-69jc7`") || !strings.Contains(stdout, "## Job `sc-b1`") {
			t.Errorf("--pod %s: the report lacks the pod or its job:\n%s", pod, stdout)
		}
	}
}

// TestExportOTLP: --format otlp sends to --otlp-endpoint, with its headers.
func TestExportOTLP(t *testing.T) {
	var posts, authorized atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/v1/traces" {
			posts.Add(1)
			if r.Header.Get("Authorization") == "Bearer t" {
				authorized.Add(1)
			}
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer srv.Close()
	code, stdout, stderr := runCmd(t, "export", recordingPath("startup-probe"), "--format", "otlp",
		"--otlp-endpoint", srv.URL, "--otlp-header", "Authorization=Bearer t")
	if code != 0 || stdout != "" || !strings.Contains(stderr, "sent 1 pods' traces to "+srv.URL) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if posts.Load() == 0 || authorized.Load() != posts.Load() {
		t.Errorf("%d requests, %d with the header; want at least one, all with it", posts.Load(), authorized.Load())
	}
}

// TestExportOTLPShift: --shift-to-now says how far it moved the traces (export's
// TestShiftToNow checks the spans), and a HOST:PORT that answers in plain HTTP is said in one
// line that names the fix.
func TestExportOTLPShift(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer srv.Close()
	code, _, stderr := runCmd(t, "export", recordingPath("startup-probe"), "--format", "otlp", "--otlp-endpoint", srv.URL, "--shift-to-now")
	if code != 0 || !strings.Contains(stderr, "sent 1 pods' traces to "+srv.URL+", every time moved by ") || !strings.Contains(stderr, "so that they end now\n") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	hostPort := strings.TrimPrefix(srv.URL, "http://")
	code, _, stderr = runCmd(t, "export", recordingPath("startup-probe"), "--format", "otlp", "--otlp-endpoint", hostPort, "--otlp-timeout", "10s")
	if want := "give http://" + hostPort + ", or --otlp-insecure"; code != 1 || !strings.Contains(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want 1 and one line with %q", code, stderr, want)
	}
}

// TestExportFlag: --export parses FORMAT=FILE, repeatable, and refuses anything else.
func TestExportFlag(t *testing.T) {
	var e exportFlag
	for _, v := range []string{"markdown=pod.md", "perfetto=t.json", "md=a=b.md", "otlp=http://localhost:4318"} {
		if err := e.Set(v); err != nil {
			t.Fatalf("Set(%q): %v", v, err)
		}
	}
	want := []exportSpec{{export.Markdown, "pod.md"}, {export.Perfetto, "t.json"}, {export.Markdown, "a=b.md"},
		{export.OTLP, "http://localhost:4318"}}
	if diff := cmp.Diff(e.specs, want, cmp.AllowUnexported(exportSpec{})); diff != "" {
		t.Errorf("specs (-got +want):\n%s", diff)
	}
	for _, bad := range []string{"markdown", "markdown=", "=x", "tiff=x"} {
		if err := e.Set(bad); err == nil {
			t.Errorf("Set(%q): no error", bad)
		}
	}
}
