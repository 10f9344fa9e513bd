package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// runCmd runs the command line as main does, with no terminal and no kubeconfig of the user's.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	t.Setenv("NO_COLOR", "")
	var out, errOut bytes.Buffer
	s := streams{IOStreams: genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}}
	code = run(args, s)
	return code, out.String(), errOut.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBadInput: every bad input gives exit status 1 and one line saying what is wrong.
func TestBadInput(t *testing.T) {
	malformed := writeFile(t, "bad.jsonl", `{"kind":"SidecarTopRecording","version":1,"namespace":"x","target":"pod/x","startTime":"2026-12-02T08:00:00Z"}
{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x"}}}
{"time": oops}
`)
	newer := writeFile(t, "new.jsonl", `{"kind":"SidecarTopRecording","version":2,"namespace":"x","target":"pod/x","startTime":"2026-12-02T08:00:00Z"}
`)
	empty := writeFile(t, "empty.jsonl", "")
	// Nothing the timeline shows: a header only (a target that never appeared while recording),
	// or an object of another kind.
	headerOnly := writeFile(t, "header.jsonl", `{"kind":"SidecarTopRecording","version":1,"namespace":"x","target":"pod/x","startTime":"2026-12-02T08:00:00Z"}
`)
	otherKind := writeFile(t, "configmap.jsonl", `{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"x"}}}
`)
	exists := writeFile(t, "exists.jsonl", "mine")
	unreachable := unreachableConfig(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{}, "no Kubernetes configuration"}, // no target: the namespace's table
		{[]string{"-A", "pod/x"}, "takes no target"},
		{[]string{"-A", "-o", "xml"}, `-o "xml": want json, jsonl or yaml`},
		{[]string{"-o", "json", "pod/x"}, "-o json is for a scope"},
		{[]string{"--sidecars-only", "job/x"}, "--sidecars-only is for a scope"},
		{[]string{"a", "b"}, "one target at a time"},
		{[]string{"svc/x"}, `cannot watch "svc"`},
		{[]string{"pod/"}, "the name is missing"},
		{[]string{"pod/Bad_Name"}, "is not a valid name"},
		{[]string{"-l", "a in ("}, "bad label selector"},
		{[]string{"app", "-l", "a=b"}, "not both"},
		{[]string{"--color", "pink", "app"}, "invalid color mode"},
		{[]string{"app"}, "no Kubernetes configuration"},
		{[]string{"record", "app"}, "record needs --output-file FILE"},
		{[]string{"record", "app", "-o", "a.jsonl"}, `-o "a.jsonl": -o is the output format (json or yaml); record's file is --output-file a.jsonl`},
		{[]string{"record", "app", "--output-file", "a.jsonl", "--until", "never"}, `--until "never"`},
		{[]string{"replay"}, "accepts 1 arg"},
		{[]string{"replay", "/does/not/exist.jsonl"}, "no such file"},
		{[]string{"replay", malformed}, "bad.jsonl:3: malformed line"},
		{[]string{"replay", newer}, "new.jsonl:1: recording version 2 is newer"}, // README says it names the line
		{[]string{"replay", empty}, "empty recording"},
		{[]string{"replay", headerOnly}, "header.jsonl: no Pod, Event or Job in the recording"},
		{[]string{"replay", "--plain", otherKind}, "configmap.jsonl: no Pod, Event or Job in the recording"},
		{[]string{"replay", "-o", "json", headerOnly}, "header.jsonl: no Pod, Event or Job in the recording"},
		{[]string{"replay", malformed, "-o", "xml"}, `-o "xml": want json or yaml`},
		{[]string{"demo", "nosuch"}, `no demo recording "nosuch"`},
		{[]string{"demo", "--speed", "fast"}, `--speed "fast"`},
		{[]string{"--bogus"}, "unknown flag"},
		// Flags are read before anything is opened: the file does not exist either.
		{[]string{"replay", "/does/not/exist.jsonl", "--speed", "NaN"}, `--speed "NaN": want a factor from 0.1 to 1000`},
		{[]string{"replay", "/does/not/exist.jsonl", "--speed", "1e-300"}, `--speed "1e-300"`},
		{[]string{"replay", "/does/not/exist.jsonl", "--speed", "Inf"}, `--speed "Inf"`},
		{[]string{"replay", "/does/not/exist.jsonl", "--speed", "0"}, `--speed "0"`},
		{[]string{"replay", "/does/not/exist.jsonl", "--speed", "-2"}, `--speed "-2"`},
		{[]string{"replay", "/does/not/exist.jsonl", "-o", "xml"}, `-o "xml": want json or yaml`},
		{[]string{"replay", "/does/not/exist.jsonl", "--idle-limit", "-1s"}, "--idle-limit cannot be negative"},
		{[]string{"replay", "/does/not/exist.jsonl", "--idle-limit", "soon"}, `invalid argument "soon" for "--idle-limit"`},
		{[]string{"demo", "--speed", "1e-300"}, `--speed "1e-300"`},
		{[]string{"demo", "--color", "pink"}, "invalid color mode"},
		{[]string{"record", "app", "--output-file", "-", "-o", "json"}, "-o json cannot print there too"},
		{[]string{"record", "app", "--output-file", "a.jsonl", "--timeout", "-1s"}, "cannot be negative"},
		{[]string{"record", "--kubeconfig", unreachable, "app", "--output-file", exists}, "exists.jsonl exists: record will not overwrite it"},
		{[]string{"record", "--kubeconfig", unreachable, "app", "--output-file", filepath.Join(t.TempDir(), "no", "x.jsonl")}, "cannot create the recording"},
		{[]string{"record", "--kubeconfig", unreachable, "app", "--output-file", filepath.Join(t.TempDir(), "x.jsonl")}, "cannot reach the API server"},
		{[]string{"version", "x"}, `unknown command "x" for "sidecar-top version"`},
		{[]string{"pod/version"}, "no Kubernetes configuration"}, // watched, not the version command
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr = %q, want one line containing %q", stderr, tt.want)
			}
		})
	}
}

// unreachableConfig is a kubeconfig whose server refuses connections.
func unreachableConfig(t *testing.T) string {
	t.Helper()
	return kubeconfig(t, "https://127.0.0.1:1")
}

// kubeconfig is a kubeconfig of one cluster at server, namespace ns.
func kubeconfig(t *testing.T, server string) string {
	t.Helper()
	return writeFile(t, "config", `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "`+server+`", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u, namespace: ns}}]
current-context: x
`)
}

func TestUnreachableServer(t *testing.T) {
	cfg := unreachableConfig(t)
	code, _, stderr := runCmd(t, "--kubeconfig", cfg, "app")
	if code != 1 || !strings.Contains(stderr, "cannot reach the API server at https://127.0.0.1:1") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestVersion: the version subcommand prints what --version prints.
func TestVersion(t *testing.T) {
	want := "sidecar-top version " + version + "\n"
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, stdout, stderr := runCmd(t, args...)
		if code != 0 || stdout != want || stderr != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 0, %q", args, code, stdout, stderr, want)
		}
	}
}

// TestDemoJSON: the built-in recording replays to the documented JSON.
func TestDemoJSON(t *testing.T) {
	code, stdout, stderr := runCmd(t, "demo", "termination-order", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Kind   string `json:"kind"`
		Target string `json:"target"`
		Pods   []struct {
			Name       string `json:"name"`
			UID        string `json:"uid"`
			Statuses   []struct{ Status string }
			Containers []struct {
				Name, Kind string
				Milestones []struct {
					Kind, Source, At, Earliest, Latest string
					ExitCode                           *int `json:"exitCode"`
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Kind != "SidecarTopTimeline" || got.Target != "pod/sc-c" || len(got.Pods) != 1 || got.Pods[0].UID == "" {
		t.Fatalf("got %+v", got)
	}
	var kinds []string
	for _, c := range got.Pods[0].Containers {
		kinds = append(kinds, c.Name+":"+c.Kind)
		for _, m := range c.Milestones {
			if m.At == "" || m.Earliest == "" || m.Latest == "" || m.Source == "" {
				t.Errorf("%s %s lacks a time or source: %+v", c.Name, m.Kind, m)
			}
			if m.Kind == "exit" && m.ExitCode == nil {
				t.Errorf("%s exit without exitCode", c.Name)
			}
		}
	}
	if strings.Join(kinds, " ") != "sidecar:sidecar app:app" {
		t.Errorf("containers %v", kinds)
	}
}

func TestDemoPlain(t *testing.T) {
	code, stdout, stderr := runCmd(t, "demo")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"sidecar", "started", "sigterm", "init-sleep exit → sidecar start"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("plain output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "\x1b[") {
		t.Error("plain output has escape sequences")
	}
}

func TestDemoList(t *testing.T) {
	_, stdout, _ := runCmd(t, "demo", "--list")
	if !strings.Contains(stdout, "startup-probe\n") || !strings.Contains(stdout, "crashing-sidecar") {
		t.Errorf("stdout %q", stdout)
	}
}
