package watch

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
)

// TargetKind is what the user asked to watch.
type TargetKind string

// Target kinds.
const (
	TargetPod        TargetKind = "pod"
	TargetJob        TargetKind = "job"
	TargetDeployment TargetKind = "deployment"
	TargetSelector   TargetKind = "selector"
)

// Target is what to watch: one pod by name, a Job's pods, a Deployment's pods, or the pods a
// label selector matches, in one namespace.
type Target struct {
	Kind      TargetKind
	Name      string
	Selector  string
	Namespace string
}

// String is the target as the user would type it: pod/x, job/x, deployment/x or -l sel.
func (t Target) String() string {
	if t.Kind == TargetSelector {
		return "-l " + t.Selector
	}
	return string(t.Kind) + "/" + t.Name
}

// ParseTarget reads the command line's TARGET argument (POD, pod/x, job/x, deploy/x) or its
// label selector; exactly one of them must be given.
func ParseTarget(args []string, selector, namespace string) (Target, error) {
	t := Target{Namespace: namespace}
	switch {
	case len(args) > 1:
		return t, fmt.Errorf("one target at a time, got %d: %s", len(args), strings.Join(args, " "))
	case len(args) == 1 && selector != "":
		return t, fmt.Errorf("give a target or -l SELECTOR, not both")
	case len(args) == 0 && selector == "":
		return t, fmt.Errorf("what to watch? give POD, pod/NAME, job/NAME, deploy/NAME or -l SELECTOR")
	case selector != "":
		if _, err := labels.Parse(selector); err != nil {
			return t, fmt.Errorf("bad label selector %q: %w", selector, err)
		}
		t.Kind, t.Selector = TargetSelector, selector
		return t, nil
	}
	kind, name, found := strings.Cut(args[0], "/")
	if !found {
		kind, name = "pod", args[0]
	}
	switch strings.ToLower(kind) {
	case "pod", "pods", "po":
		t.Kind = TargetPod
	case "job", "jobs", "job.batch", "jobs.batch":
		t.Kind = TargetJob
	case "deploy", "deployment", "deployments", "deployment.apps", "deployments.apps":
		t.Kind = TargetDeployment
	default:
		return t, fmt.Errorf("cannot watch %q: use pod/NAME, job/NAME or deploy/NAME", kind)
	}
	if name == "" {
		return t, fmt.Errorf("%s/: the name is missing", kind)
	}
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return t, fmt.Errorf("%q is not a valid name: %s", name, errs[0])
	}
	t.Name = name
	return t, nil
}
