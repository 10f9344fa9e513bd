package watch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"

	authv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// PreflightTimeout bounds each check Preflight makes.
const PreflightTimeout = 15 * time.Second

// Preflight checks, before any informer starts, that the watch can work: the server answers,
// the namespace exists, and the user may list and watch what the target needs. Informers would
// retry a Forbidden forever and never sync; this turns it into one clear error. It returns the
// server's version for the recording header.
func Preflight(ctx context.Context, client kubernetes.Interface, t Target, server string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, PreflightTimeout)
	defer cancel()
	v, err := client.Discovery().ServerVersionWithContext(ctx)
	if err != nil {
		return "", Explain(err, server)
	}
	if err := namespaceExists(ctx, client, t, server); err != nil {
		return "", err
	}
	type need struct{ group, resource, verb string }
	needs := []need{{"", "pods", "list"}, {"", "pods", "watch"}, {"", "events", "list"}, {"", "events", "watch"}}
	switch t.Kind {
	case TargetJob:
		needs = append(needs, need{"batch", "jobs", "list"}, need{"batch", "jobs", "watch"})
	case TargetCronJob:
		needs = append(needs, need{"batch", "cronjobs", "get"}, need{"batch", "jobs", "list"}, need{"batch", "jobs", "watch"})
	case TargetDeployment, TargetStateful, TargetDaemonSet, TargetReplicaSet:
		needs = append(needs, need{"apps", workloadResource(t.Kind), "get"})
	}
	// Every need is asked, so that one line names all that is missing.
	var denied, reasons []string
	for _, n := range needs {
		allowed, reason, err := canI(ctx, client, t.Namespace, n.group, n.resource, n.verb)
		if err != nil {
			break // cannot ask (old server, no permission to ask): the informers will tell
		}
		if !allowed {
			denied = append(denied, n.verb+" "+n.resource)
			if reason != "" && !slices.Contains(reasons, reason) {
				reasons = append(reasons, reason)
			}
		}
	}
	if len(denied) > 0 {
		msg := fmt.Sprintf("not allowed to %s in namespace %q", andList(denied), t.Namespace)
		if t.AllNamespaces() {
			msg = fmt.Sprintf("not allowed to %s in all namespaces (a ClusterRole: see docs/usage.md)", andList(denied))
		}
		if len(reasons) > 0 {
			msg += ": " + strings.Join(reasons, "; ")
		}
		if t.AllNamespaces() {
			msg += "; try -n NAMESPACE"
		}
		return "", errors.New(msg)
	}
	return v.GitVersion, nil
}

// namespaceExists fails when the target's namespace does not exist; a scope of all namespaces
// has none to check, and a user who may not read namespaces is let through (the watches tell).
func namespaceExists(ctx context.Context, client kubernetes.Interface, t Target, server string) error {
	if t.AllNamespaces() {
		return nil
	}
	if _, err := client.CoreV1().Namespaces().Get(ctx, t.Namespace, metav1.GetOptions{}); apierrors.IsNotFound(err) {
		return fmt.Errorf("namespace %q not found", t.Namespace)
	} else if err != nil && !apierrors.IsForbidden(err) {
		return Explain(err, server)
	}
	return nil
}

// andList joins items as a sentence does: "a", "a and b", "a, b and c".
func andList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func canI(ctx context.Context, client kubernetes.Interface, ns, group, resource, verb string) (bool, string, error) {
	r, err := client.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, &authv1.SelfSubjectAccessReview{
		Spec: authv1.SelfSubjectAccessReviewSpec{ResourceAttributes: &authv1.ResourceAttributes{
			Namespace: ns, Group: group, Resource: resource, Verb: verb,
		}},
	}, metav1.CreateOptions{})
	if err != nil {
		return false, "", err
	}
	return r.Status.Allowed, r.Status.Reason, nil
}

// Explain turns a client error into one line a user can act on.
func Explain(err error, server string) error {
	var uerr *url.Error
	var nerr net.Error
	switch {
	case err == nil:
		return nil
	case apierrors.IsUnauthorized(err):
		return fmt.Errorf("the API server at %s rejected the credentials (401 Unauthorized): check the kubeconfig's user", server)
	case apierrors.IsForbidden(err):
		return errors.New(statusMessage(err))
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &nerr) && nerr.Timeout()):
		return fmt.Errorf("the API server at %s did not answer within %s", server, PreflightTimeout)
	case errors.As(err, &uerr):
		return fmt.Errorf("cannot reach the API server at %s: %v", server, uerr.Err)
	}
	return err
}

func statusMessage(err error) string {
	var s apierrors.APIStatus
	if errors.As(err, &s) {
		return strings.TrimSpace(s.Status().Message)
	}
	return err.Error()
}
