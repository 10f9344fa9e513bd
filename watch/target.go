package watch

import (
	"fmt"
	"regexp"
	"slices"
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
	TargetStateful   TargetKind = "statefulset"
	TargetDaemonSet  TargetKind = "daemonset"
	TargetReplicaSet TargetKind = "replicaset"
	TargetCronJob    TargetKind = "cronjob" // the pods of the CronJob's Jobs
	TargetSelector   TargetKind = "selector"
	// TargetPodPattern is the pods of a namespace whose name a regular expression matches, as
	// stern's pod query: an argument with a character no name holds (IsPattern).
	TargetPodPattern TargetKind = "pod-pattern"
	// TargetScope is every pod of a namespace, or of the cluster when Namespace is empty,
	// narrowed by Selector if one is given: the fleet table's scope.
	TargetScope TargetKind = "scope"
)

// Target is what to watch: one pod by name, the pods of a Job or of a workload with a selector
// (Deployment, StatefulSet, DaemonSet, ReplicaSet), the pods a label selector matches in one
// namespace, or a scope: a namespace, or the cluster.
type Target struct {
	Kind      TargetKind
	Name      string // a pattern target's regular expression, as given
	Selector  string
	Namespace string // "" for a scope of all namespaces
}

// patternChars are the characters of a regular expression that no Kubernetes name holds (a
// name has a-z, 0-9, "-" and "."): an argument with one of them is a pattern, never a name.
const patternChars = `*+?^$[](){}|\`

// IsPattern reports whether arg, a TARGET or a -c, is a regular expression rather than a name:
// it holds a character no name holds. To match names as a pattern, anchor it: ^web.
func IsPattern(arg string) bool { return strings.ContainsAny(arg, patternChars) }

// NamePattern is a pattern target's regular expression, which matches its pods' names
// unanchored, as stern's query does.
func (t Target) NamePattern() (*regexp.Regexp, error) {
	re, err := regexp.Compile(t.Name)
	if err != nil {
		return nil, fmt.Errorf("%q is a pattern of pod names (it has one of %s), and not a valid one: %w", t.Name, patternChars, err)
	}
	return re, nil
}

// String is the target as the user would type it: pod/x, job/x, deployment/x or -l sel; a
// scope as words: "all namespaces", "namespace shop", with its selector.
func (t Target) String() string {
	switch t.Kind {
	case TargetSelector:
		return "-l " + t.Selector
	case TargetPodPattern:
		return t.Name
	case TargetScope:
		s := "namespace " + t.Namespace
		if t.AllNamespaces() {
			s = "all namespaces"
		}
		if t.Selector != "" {
			s += " -l " + t.Selector
		}
		return s
	}
	return string(t.Kind) + "/" + t.Name
}

// IsScope reports whether a target as String writes it (a recording's header keeps it so)
// names a scope; all says it is every namespace's.
func IsScope(target string) (scope, all bool) {
	all = target == "all namespaces" || strings.HasPrefix(target, "all namespaces -l ")
	return all || strings.HasPrefix(target, "namespace "), all
}

// AllNamespaces reports whether the target is every namespace's pods.
func (t Target) AllNamespaces() bool { return t.Kind == TargetScope && t.Namespace == "" }

// Workload reports whether the target is a workload whose pods its spec.selector names.
func (t Target) Workload() bool {
	switch t.Kind {
	case TargetDeployment, TargetStateful, TargetDaemonSet, TargetReplicaSet:
		return true
	}
	return false
}

// ParseScope reads the command line's target as ParseTarget does, and a scope as well: with no
// TARGET and no selector, every pod of the namespace; with all (-A, --all-namespaces), every
// pod of the cluster, narrowed by the selector if one is given.
func ParseScope(args []string, selector, namespace string, all bool) (Target, error) {
	switch {
	case all && len(args) > 0:
		return Target{}, fmt.Errorf("-A watches every namespace: it takes no target (%s), only -l SELECTOR", strings.Join(args, " "))
	case all || len(args) == 0 && selector == "":
		t := Target{Kind: TargetScope, Selector: selector, Namespace: namespace}
		if all {
			t.Namespace = ""
		}
		if _, err := labels.Parse(selector); err != nil {
			return t, fmt.Errorf("bad label selector %q: %w", selector, err)
		}
		return t, nil
	}
	return ParseTarget(args, selector, namespace)
}

// targetKinds are the kinds a TARGET may name, each with the names kubectl accepts for it
// (singular, plural, short name, and qualified by the API group), compared without case. The
// first name of each is the one the usage suggests.
var targetKinds = []struct {
	kind  TargetKind
	names []string
}{
	{TargetPod, []string{"pod", "pods", "po"}},
	{TargetJob, []string{"job", "jobs", "job.batch", "jobs.batch"}},
	{TargetCronJob, []string{"cronjob", "cj", "cronjobs", "cronjob.batch", "cronjobs.batch"}},
	{TargetDeployment, []string{"deploy", "deployment", "deployments", "deployment.apps", "deployments.apps"}},
	{TargetStateful, []string{"sts", "statefulset", "statefulsets", "statefulset.apps", "statefulsets.apps"}},
	{TargetDaemonSet, []string{"ds", "daemonset", "daemonsets", "daemonset.apps", "daemonsets.apps"}},
	{TargetReplicaSet, []string{"rs", "replicaset", "replicasets", "replicaset.apps", "replicasets.apps"}},
}

// targetKindNamed is the kind a TARGET's KIND/ names, by any of its names in targetKinds.
func targetKindNamed(name string) (TargetKind, bool) {
	name = strings.ToLower(name)
	for _, k := range targetKinds {
		if slices.Contains(k.names, name) {
			return k.kind, true
		}
	}
	return "", false
}

// TargetKindUsage lists the kinds a TARGET may name, by each one's suggested name:
// "pod/NAME, job/NAME, ... or rs/NAME": what ParseTarget's error and the command's help say,
// so that a kind added to targetKinds is named in both.
func TargetKindUsage() string {
	forms := make([]string, len(targetKinds))
	for i, k := range targetKinds {
		forms[i] = k.names[0] + "/NAME"
	}
	last := len(forms) - 1
	return strings.Join(forms[:last], ", ") + " or " + forms[last]
}

// ParseTarget reads the command line's TARGET argument (POD, pod/x, job/x, deploy/x, or a
// pattern of pod names: IsPattern) or its label selector; exactly one of them must be given.
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
	return parseTargetArg(t, args[0])
}

// parseTargetArg reads a TARGET argument into t: a pattern of pod names, KIND/NAME, or a bare
// NAME, which is a pod's.
func parseTargetArg(t Target, arg string) (Target, error) {
	if IsPattern(arg) && !strings.Contains(arg, "/") {
		t.Kind, t.Name = TargetPodPattern, arg
		_, err := t.NamePattern()
		return t, err
	}
	kind, name, found := strings.Cut(arg, "/")
	if !found {
		kind, name = "pod", arg
	}
	k, ok := targetKindNamed(kind)
	if !ok {
		return t, fmt.Errorf("cannot watch %q: use %s", kind, TargetKindUsage())
	}
	t.Kind = k
	if name == "" {
		return t, fmt.Errorf("%s/: the name is missing", kind)
	}
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return t, fmt.Errorf("%q is not a valid name: %s", name, errs[0])
	}
	t.Name = name
	return t, nil
}
