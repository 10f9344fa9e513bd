package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestContainerFilter: -c shows the lanes of the containers it names, by name or by a regular
// expression as stern's, in -o json and -o yaml and in the plain lines; the pod's gaps are the
// whole pod's.
func TestContainerFilter(t *testing.T) {
	rec := recordingPath("startup-probe") // init-sleep, sidecar, app
	type doc struct {
		Pods []struct {
			Containers []struct{ Name string }
			Gaps       []struct{ Name string }
		}
	}
	read := func(args ...string) doc {
		t.Helper()
		code, stdout, stderr := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var d doc
		if err := json.Unmarshal([]byte(stdout), &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	names := func(d doc) (lanes, gaps []string) {
		for _, c := range d.Pods[0].Containers {
			lanes = append(lanes, c.Name)
		}
		for _, g := range d.Pods[0].Gaps {
			gaps = append(gaps, g.Name)
		}
		return lanes, gaps
	}
	_, allGaps := names(read("replay", rec, "-o", "json"))
	for _, tc := range []struct {
		c    string
		want []string
	}{
		{"app", []string{"app"}},
		{"sidecar", []string{"sidecar"}},
		{"side|app", []string{"sidecar", "app"}},
		{"^init", []string{"init-sleep"}},
		{"ap", nil}, // a name matches that container alone
		{".*", []string{"init-sleep", "sidecar", "app"}},
	} {
		for _, args := range [][]string{{"replay", rec, "-o", "json", "-c", tc.c}, {"replay", rec, "-o", "json", "--summary", "--container", tc.c}} {
			lanes, gaps := names(read(args...))
			if diff := cmp.Diff(lanes, tc.want); diff != "" {
				t.Errorf("%v: lanes (-got +want):\n%s", args, diff)
			}
			if diff := cmp.Diff(gaps, allGaps); diff != "" {
				t.Errorf("%v: the pod's gaps changed (-got +want):\n%s", args, diff)
			}
		}
	}
	code, stdout, _ := runCmd(t, "replay", rec, "-c", "app")
	otherLane := regexp.MustCompile(`(?m)^sc-a .*\s(sidecar|init-sleep)\s{2,}\S|^\s+(sidecar|init-sleep) \(`)
	if code != 0 || !strings.Contains(stdout, "app (app): ") || otherLane.MatchString(stdout) {
		t.Errorf("plain lines with -c app: exit %d:\n%s", code, stdout)
	}
	code, stdout, _ = runCmd(t, "replay", rec, "-o", "yaml", "-c", "app")
	if code != 0 || !strings.Contains(stdout, "- name: app\n") || strings.Contains(stdout, "- name: sidecar\n") {
		t.Errorf("-o yaml with -c app: exit %d:\n%s", code, stdout)
	}
}
