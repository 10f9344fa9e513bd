package watch

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseTarget(t *testing.T) {
	tests := []struct {
		args     []string
		selector string
		want     Target
		wantErr  string // empty: no error
	}{
		{args: []string{"app"}, want: Target{Kind: TargetPod, Name: "app", Namespace: "ns"}},
		{args: []string{"pod/app"}, want: Target{Kind: TargetPod, Name: "app", Namespace: "ns"}},
		{args: []string{"po/app"}, want: Target{Kind: TargetPod, Name: "app", Namespace: "ns"}},
		{args: []string{"pods/app"}, want: Target{Kind: TargetPod, Name: "app", Namespace: "ns"}},
		{args: []string{"Pod/app"}, want: Target{Kind: TargetPod, Name: "app", Namespace: "ns"}},
		{args: []string{"pod/web-7d4b9c.x2k9p"}, want: Target{Kind: TargetPod, Name: "web-7d4b9c.x2k9p", Namespace: "ns"}},
		{args: []string{"job/x"}, want: Target{Kind: TargetJob, Name: "x", Namespace: "ns"}},
		{args: []string{"jobs.batch/x"}, want: Target{Kind: TargetJob, Name: "x", Namespace: "ns"}},
		{args: []string{"deploy/x"}, want: Target{Kind: TargetDeployment, Name: "x", Namespace: "ns"}},
		{args: []string{"deployment/x"}, want: Target{Kind: TargetDeployment, Name: "x", Namespace: "ns"}},
		{args: []string{"deployments.apps/x"}, want: Target{Kind: TargetDeployment, Name: "x", Namespace: "ns"}},
		{selector: "app=x", want: Target{Kind: TargetSelector, Selector: "app=x", Namespace: "ns"}},
		{selector: "app in (x,y),!canary", want: Target{Kind: TargetSelector, Selector: "app in (x,y),!canary", Namespace: "ns"}},
		{args: []string{"app"}, selector: "app=x", wantErr: "not both"},
		{wantErr: "what to watch?"},
		{args: []string{"a", "b"}, wantErr: "one target at a time"},
		{args: []string{"svc/x"}, wantErr: `cannot watch "svc"`},
		{args: []string{"/x"}, wantErr: `cannot watch ""`},
		{args: []string{"pod/"}, wantErr: "the name is missing"},
		{args: []string{"pod/Bad_Name"}, wantErr: "not a valid name"},
		{args: []string{"Bad_Name"}, wantErr: "not a valid name"},
		{args: []string{"pod/a/b"}, wantErr: "not a valid name"},
		{selector: "a in (", wantErr: "bad label selector"},
	}
	for _, tt := range tests {
		got, err := ParseTarget(tt.args, tt.selector, "ns")
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseTarget(%q, %q) = %+v, %v; want an error containing %q", tt.args, tt.selector, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseTarget(%q, %q): %v", tt.args, tt.selector, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseTarget(%q, %q) mismatch (-want +got):\n%s", tt.args, tt.selector, diff)
		}
	}
}

func TestTargetString(t *testing.T) {
	tests := []struct {
		target Target
		want   string
	}{
		{Target{Kind: TargetPod, Name: "app", Namespace: "ns"}, "pod/app"},
		{Target{Kind: TargetJob, Name: "x"}, "job/x"},
		{Target{Kind: TargetDeployment, Name: "x"}, "deployment/x"},
		{Target{Kind: TargetSelector, Selector: "app=x"}, "-l app=x"},
	}
	for _, tt := range tests {
		if got := tt.target.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.target, got, tt.want)
		}
	}
}

// TestTargetStringParses checks that a target's String, which recordings keep in their header,
// reads back as the same target.
func TestTargetStringParses(t *testing.T) {
	for _, want := range []Target{
		{Kind: TargetPod, Name: "app", Namespace: "ns"},
		{Kind: TargetJob, Name: "x", Namespace: "ns"},
		{Kind: TargetDeployment, Name: "x", Namespace: "ns"},
		{Kind: TargetSelector, Selector: "app=x", Namespace: "ns"},
	} {
		var args []string
		selector, isSelector := strings.CutPrefix(want.String(), "-l ")
		if !isSelector {
			args, selector = []string{want.String()}, ""
		}
		got, err := ParseTarget(args, selector, "ns")
		if err != nil {
			t.Errorf("ParseTarget(%q): %v", want.String(), err)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ParseTarget(%q) mismatch (-want +got):\n%s", want.String(), diff)
		}
	}
}

func TestParseScope(t *testing.T) {
	for _, tt := range []struct {
		args     []string
		selector string
		all      bool
		want     Target
		wantErr  string
	}{
		{nil, "", false, Target{Kind: TargetScope, Namespace: "ns"}, ""},
		{nil, "", true, Target{Kind: TargetScope}, ""},
		{nil, "app=web", true, Target{Kind: TargetScope, Selector: "app=web"}, ""},
		{nil, "app=web", false, Target{Kind: TargetSelector, Selector: "app=web", Namespace: "ns"}, ""},
		{[]string{"sts/db"}, "", false, Target{Kind: TargetStateful, Name: "db", Namespace: "ns"}, ""},
		{[]string{"ds/agent"}, "", false, Target{Kind: TargetDaemonSet, Name: "agent", Namespace: "ns"}, ""},
		{[]string{"replicaset.apps/web-5d9f"}, "", false, Target{Kind: TargetReplicaSet, Name: "web-5d9f", Namespace: "ns"}, ""},
		{[]string{"cj/nightly"}, "", false, Target{Kind: TargetCronJob, Name: "nightly", Namespace: "ns"}, ""},
		{[]string{"cronjobs.batch/nightly"}, "", false, Target{Kind: TargetCronJob, Name: "nightly", Namespace: "ns"}, ""},
		{[]string{"pod/x"}, "", true, Target{}, "takes no target"},
		{nil, "a in (", true, Target{}, "bad label selector"},
	} {
		got, err := ParseScope(tt.args, tt.selector, "ns", tt.all)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseScope(%q, %q, %v) = %+v, %v; want an error containing %q", tt.args, tt.selector, tt.all, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseScope(%q, %q, %v) = %+v, %v; want %+v", tt.args, tt.selector, tt.all, got, err, tt.want)
		}
	}
	for _, tt := range []Target{{Kind: TargetScope}, {Kind: TargetScope, Selector: "a=b"}, {Kind: TargetScope, Namespace: "x"},
		{Kind: TargetPod, Name: "namespace"}, {Kind: TargetSelector, Selector: "a=b"}} {
		scope, all := IsScope(tt.String())
		if scope != (tt.Kind == TargetScope) || all != tt.AllNamespaces() {
			t.Errorf("IsScope(%q) = %v, %v", tt.String(), scope, all)
		}
	}
	if s := (Target{Kind: TargetScope}).String(); s != "all namespaces" {
		t.Errorf("String of all namespaces: %q", s)
	}
	if s := (Target{Kind: TargetScope, Namespace: "shop", Selector: "app=web"}).String(); s != "namespace shop -l app=web" {
		t.Errorf("String of a namespace scope: %q", s)
	}
}

// TestTargetKinds ranges over the kinds a TARGET may name: each of a kind's names, in any case,
// parses to that kind; a target of the kind reads back from its String (recordings keep it); and
// no name belongs to two kinds.
func TestTargetKinds(t *testing.T) {
	owner := map[string]TargetKind{}
	for _, k := range targetKinds {
		for _, name := range k.names {
			if other, ok := owner[name]; ok {
				t.Errorf("%q names both %s and %s", name, other, k.kind)
			}
			owner[name] = k.kind
			for _, arg := range []string{name + "/x", strings.ToUpper(name) + "/x"} {
				got, err := ParseTarget([]string{arg}, "", "ns")
				if want := (Target{Kind: k.kind, Name: "x", Namespace: "ns"}); err != nil || got != want {
					t.Errorf("ParseTarget(%q) = %+v, %v; want %+v", arg, got, err, want)
				}
			}
		}
		want := Target{Kind: k.kind, Name: "x", Namespace: "ns"}
		if got, err := ParseTarget([]string{want.String()}, "", "ns"); err != nil || got != want {
			t.Errorf("ParseTarget(%q) = %+v, %v; want %+v", want.String(), got, err, want)
		}
	}
}

// TestEveryTargetKindResolves: Live.resolve knows how to find the pods of every kind a TARGET
// may name (against an empty cluster, a workload or a CronJob is not found, which is another
// error): a kind added to targetKinds alone is refused, not watched as the whole namespace.
func TestEveryTargetKindResolves(t *testing.T) {
	for _, k := range targetKinds {
		l := NewLive(newFakeCluster(), Target{Kind: k.kind, Name: "x", Namespace: "ns"})
		if err := l.resolve(context.Background()); errors.Is(err, errUnresolved) {
			t.Errorf("%s: %v", k.kind, err)
		}
	}
	if err := NewLive(newFakeCluster(), Target{Kind: "service", Name: "x"}).resolve(context.Background()); !errors.Is(err, errUnresolved) {
		t.Errorf("a kind resolve has no case for: error %v, want errUnresolved", err)
	}
}

// TestParseTargetUsage: an unknown kind's error lists the kinds by their suggested names.
func TestParseTargetUsage(t *testing.T) {
	_, err := ParseTarget([]string{"svc/x"}, "", "ns")
	want := `cannot watch "svc": use pod/NAME, job/NAME, cronjob/NAME, deploy/NAME, sts/NAME, ds/NAME or rs/NAME`
	if err == nil || err.Error() != want {
		t.Errorf("ParseTarget(svc/x) error = %v, want %q", err, want)
	}
}
