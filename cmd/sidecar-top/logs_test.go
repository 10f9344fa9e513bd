package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"
	authv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestLogFlags: the log flags of watch and record, as the command line gives them, for each
// kind of target, to the plan they make or the one-line error.
func TestLogFlags(t *testing.T) {
	dir := t.TempDir()
	marksFile := filepath.Join(dir, "marks.yaml")
	if err := os.WriteFile(marksFile, []byte("- {container: envoy, name: listening, pattern: all clusters initialized}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badFile := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(badFile, []byte("- {container: envoy, name: up, patern: x}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type plan struct {
		Logs       logChoice
		Specs      []string
		Marks      int
		KeepText   bool
		MaxStreams int
		NodeLogs   bool
		Err        string
	}
	pod := watch.Target{Kind: watch.TargetPod, Name: "p", Namespace: "ns"}
	job := watch.Target{Kind: watch.TargetJob, Name: "j", Namespace: "ns"}
	tests := []struct {
		target watch.Target
		args   []string
		want   plan
	}{
		{pod, nil, plan{Logs: logsAuto, MaxStreams: 20}},
		{job, nil, plan{Logs: logsOff, MaxStreams: 20}},
		{job, []string{"--logs"}, plan{Logs: logsOn, MaxStreams: 20}},
		{pod, []string{"--logs=false"}, plan{Logs: logsOff, MaxStreams: 20}},
		{pod, []string{"--logs"}, plan{Logs: logsOn, MaxStreams: 20}},
		{job, []string{"--logs-max-streams", "0", "--logs"}, plan{Logs: logsOn}},
		{job, []string{"--logs-max-streams", "-1"}, plan{Err: "--logs-max-streams cannot be negative (0: no limit)"}},
		{job, []string{"--mark", "app:sigterm=caught SIGTERM", "--mark", "*:ready=^ready$"},
			plan{Logs: logsOn, Specs: []string{"app:sigterm=caught SIGTERM", "*:ready=^ready$"}, Marks: 2, MaxStreams: 20}},
		{pod, []string{"--marks", marksFile, "--mark", "app:bye=bye"},
			plan{Logs: logsOn, Specs: []string{"app:bye=bye", "envoy:listening=all clusters initialized"}, Marks: 2, MaxStreams: 20}},
		{pod, []string{"--mark", "app:sigterm"}, plan{Err: `--mark: mark "app:sigterm": want CONTAINER:NAME=REGEX (no '=' after the name)`}},
		{pod, []string{"--mark", "app:x=("}, plan{Err: "--mark: mark \"app:x=(\": bad pattern: error parsing regexp: missing closing ): `(`"}},
		{pod, []string{"--marks", badFile}, plan{Err: "--marks: " + badFile + `: want a list of {container, name, pattern}: error unmarshaling JSON: while decoding JSON: json: unknown field "patern"`}},
		{pod, []string{"--marks", filepath.Join(dir, "none.yaml")}, plan{Err: "--marks: open " + filepath.Join(dir, "none.yaml") + ": no such file or directory"}},
		{pod, []string{"--logs=false", "--mark", "app:x=y"}, plan{Err: "--logs=false, yet --mark, --marks or --record-log-text need the logs: drop one or the other"}},
		{job, []string{"--record-log-text"}, plan{Logs: logsOn, KeepText: true, MaxStreams: 20}},
		{job, []string{"--node-logs"}, plan{Logs: logsOff, MaxStreams: 20, NodeLogs: true}},
	}
	for _, tt := range tests {
		t.Run(tt.target.String()+" "+strings.Join(tt.args, " "), func(t *testing.T) {
			lf := &logFlags{}
			fs := pflag.NewFlagSet("record", pflag.ContinueOnError)
			lf.addFlags(fs)
			lf.addRecordFlags(fs)
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			p, err := lf.plan(tt.target)
			got := plan{Err: errText(err)}
			if err == nil {
				got = plan{p.logs, p.specs, p.opts.Marks.Len(), p.opts.KeepText, p.opts.MaxStreams, p.nodeLogs, ""}
			}
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
		})
	}
}

// TestLogSetup: once the server answers, what the user may not read is said in one line and
// left out; the recording's header says what is in it.
func TestLogSetup(t *testing.T) {
	for _, tc := range []struct {
		name       string
		deny       map[string]bool // subresources denied
		wantNotice string
		wantLogs   bool
		wantNode   bool
	}{
		{name: "allowed", wantLogs: true, wantNode: true},
		{name: "no pods/log", deny: map[string]bool{"log": true}, wantNode: true,
			wantNotice: "sidecar-top: not allowed to read the pods' logs (get pods/log) in namespace \"ns\": no: the containers' logs are not used as evidence\n"},
		{name: "no nodes/proxy", deny: map[string]bool{"proxy": true}, wantLogs: true,
			wantNotice: "sidecar-top: not allowed to read the kubelet's log (get nodes/proxy): no: --node-logs is off\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := fake.NewClientset()
			c.PrependReactor("create", "selfsubjectaccessreviews", func(a clienttesting.Action) (bool, runtime.Object, error) {
				r := a.(clienttesting.CreateAction).GetObject().(*authv1.SelfSubjectAccessReview)
				r.Status.Allowed = !tc.deny[r.Spec.ResourceAttributes.Subresource]
				if !r.Status.Allowed {
					r.Status.Reason = "no"
				}
				return true, r, nil
			})
			lf := logFlags{logs: true, keepText: true, maxStreams: 3, nodeLogs: true, marks: []string{"app:sigterm=SIGTERM"}}
			p, err := lf.plan(watch.Target{Kind: watch.TargetJob, Name: "j", Namespace: "ns"})
			if err != nil {
				t.Fatal(err)
			}
			p.logs = logsOn
			var notice bytes.Buffer
			var opts watch.LiveOptions
			p.setup(context.Background(), c, "ns", &notice, &opts)
			if diff := cmp.Diff(notice.String(), tc.wantNotice); diff != "" {
				t.Errorf("notice (-got +want):\n%s", diff)
			}
			if (opts.Logs != nil) != tc.wantLogs || (opts.NodeLogs != nil) != tc.wantNode {
				t.Fatalf("options %+v", opts)
			}
			if opts.Logs != nil && (opts.Logs.MaxStreams != 3 || !opts.Logs.KeepText || opts.Logs.Marks.Len() != 1) {
				t.Errorf("log options %+v", *opts.Logs)
			}
			var h recfile.Header
			p.describe(&h)
			want := recfile.Header{Logs: tc.wantLogs, NodeLogs: tc.wantNode}
			if tc.wantLogs {
				want.LogText, want.Marks = true, []string{"app:sigterm=SIGTERM"}
			}
			if diff := cmp.Diff(h, want); diff != "" {
				t.Errorf("header (-got +want):\n%s", diff)
			}
		})
	}
}
