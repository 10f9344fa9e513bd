package watch

import (
	"context"
	"fmt"

	authv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// LogAccess is whether the user may read what --logs and --node-logs read, and if not why, in
// one line.
type LogAccess struct {
	Allowed bool
	Why     string // when not allowed
}

// CanReadLogs asks the API server whether the user may get pods/log in ns (kubectl logs). When
// it cannot ask (an old server, no permission to ask), it says yes: the first request tells,
// and a refusal then turns logs off with a warning.
func CanReadLogs(ctx context.Context, client kubernetes.Interface, ns string) LogAccess {
	return canAccess(ctx, client, authv1.ResourceAttributes{Namespace: ns, Verb: "get", Resource: "pods", Subresource: "log"},
		fmt.Sprintf("not allowed to read the pods' logs (get pods/log) in namespace %q", ns))
}

// CanReadNodeLogs asks whether the user may query the kubelet's log through the node proxy
// (get nodes/proxy, cluster-wide).
func CanReadNodeLogs(ctx context.Context, client kubernetes.Interface) LogAccess {
	return canAccess(ctx, client, authv1.ResourceAttributes{Verb: "get", Resource: "nodes", Subresource: "proxy"},
		"not allowed to read the kubelet's log (get nodes/proxy)")
}

func canAccess(ctx context.Context, client kubernetes.Interface, attrs authv1.ResourceAttributes, denied string) LogAccess {
	ctx, cancel := context.WithTimeout(ctx, PreflightTimeout)
	defer cancel()
	r, err := client.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx,
		&authv1.SelfSubjectAccessReview{Spec: authv1.SelfSubjectAccessReviewSpec{ResourceAttributes: &attrs}}, metav1.CreateOptions{})
	if err != nil || r.Status.Allowed {
		return LogAccess{Allowed: true}
	}
	if r.Status.Reason != "" {
		denied += ": " + r.Status.Reason
	}
	return LogAccess{Why: denied}
}
