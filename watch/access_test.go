package watch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	authv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/discovery"
	fakediscovery "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
)

type accessCheck struct{ Verb, Group, Resource, Namespace string }

// newAccessClient is a fake API server at v1.37.2 with namespace "ns" that answers access
// reviews with deny (nil: allow everything) and logs the reviews asked, in order.
func newAccessClient(deny func(accessCheck) string) (*fake.Clientset, *[]accessCheck) {
	client := fake.NewClientset(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ns"}})
	client.Discovery().(*fakediscovery.FakeDiscovery).FakedServerVersion = &version.Info{GitVersion: "v1.37.2"}
	var asked []accessCheck
	client.PrependReactor("create", "selfsubjectaccessreviews", func(action clienttesting.Action) (bool, runtime.Object, error) {
		r := action.(clienttesting.CreateAction).GetObject().(*authv1.SelfSubjectAccessReview)
		a := r.Spec.ResourceAttributes
		c := accessCheck{a.Verb, a.Group, a.Resource, a.Namespace}
		asked = append(asked, c)
		r = r.DeepCopy()
		if deny != nil {
			r.Status.Reason = deny(c)
		}
		r.Status.Allowed = r.Status.Reason == ""
		return true, r, nil
	})
	return client, &asked
}

func TestPreflightAllowed(t *testing.T) {
	podChecks := []accessCheck{{"list", "", "pods", "ns"}, {"watch", "", "pods", "ns"},
		{"list", "", "events", "ns"}, {"watch", "", "events", "ns"}}
	tests := []struct {
		target Target
		want   []accessCheck
	}{
		{Target{Kind: TargetPod, Name: "app", Namespace: "ns"}, podChecks},
		{Target{Kind: TargetSelector, Selector: "app=x", Namespace: "ns"}, podChecks},
		{Target{Kind: TargetJob, Name: "x", Namespace: "ns"},
			append(podChecks[:4:4], accessCheck{"list", "batch", "jobs", "ns"}, accessCheck{"watch", "batch", "jobs", "ns"})},
		{Target{Kind: TargetDeployment, Name: "x", Namespace: "ns"},
			append(podChecks[:4:4], accessCheck{"get", "apps", "deployments", "ns"})},
	}
	for _, tt := range tests {
		t.Run(tt.target.String(), func(t *testing.T) {
			client, asked := newAccessClient(nil)
			got, err := Preflight(context.Background(), client, tt.target, "https://api:6443")
			if err != nil {
				t.Fatalf("Preflight: %v", err)
			}
			if got != "v1.37.2" {
				t.Errorf("Preflight = %q, want the server's version v1.37.2", got)
			}
			if diff := cmp.Diff(tt.want, *asked); diff != "" {
				t.Errorf("access reviews asked mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPreflightDenied(t *testing.T) {
	tests := []struct {
		target Target
		deny   accessCheck
		want   string
	}{
		{Target{Kind: TargetPod, Name: "app", Namespace: "ns"}, accessCheck{"watch", "", "events", "ns"},
			`not allowed to watch events in namespace "ns": RBAC: no`},
		{Target{Kind: TargetJob, Name: "x", Namespace: "ns"}, accessCheck{"list", "batch", "jobs", "ns"},
			`not allowed to list jobs in namespace "ns": RBAC: no`},
		{Target{Kind: TargetDeployment, Name: "x", Namespace: "ns"}, accessCheck{"get", "apps", "deployments", "ns"},
			`not allowed to get deployments in namespace "ns": RBAC: no`},
	}
	for _, tt := range tests {
		t.Run(tt.target.String(), func(t *testing.T) {
			client, _ := newAccessClient(func(c accessCheck) string {
				if c == tt.deny {
					return "RBAC: no"
				}
				return ""
			})
			_, err := Preflight(context.Background(), client, tt.target, "https://api:6443")
			if err == nil || err.Error() != tt.want {
				t.Errorf("Preflight error = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestPreflightNamespaceMissing(t *testing.T) {
	client, _ := newAccessClient(nil)
	_, err := Preflight(context.Background(), client, Target{Kind: TargetPod, Name: "app", Namespace: "x"}, "https://api:6443")
	if want := `namespace "x" not found`; err == nil || err.Error() != want {
		t.Errorf("Preflight error = %v, want %q", err, want)
	}
}

// TestPreflightTolerates checks what Preflight lets through for the informers to report: a user
// who may not read namespaces, and a server that cannot answer access reviews.
func TestPreflightTolerates(t *testing.T) {
	target := Target{Kind: TargetPod, Name: "app", Namespace: "ns"}
	client, _ := newAccessClient(nil)
	client.PrependReactor("get", "namespaces", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "namespaces"}, "ns", errors.New("no"))
	})
	if _, err := Preflight(context.Background(), client, target, "https://api:6443"); err != nil {
		t.Errorf("Preflight with namespaces forbidden: %v", err)
	}

	client, _ = newAccessClient(nil)
	client.PrependReactor("create", "selfsubjectaccessreviews", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewNotFound(schema.GroupResource{Group: "authorization.k8s.io", Resource: "selfsubjectaccessreviews"}, "")
	})
	if _, err := Preflight(context.Background(), client, target, "https://api:6443"); err != nil {
		t.Errorf("Preflight with no access reviews: %v", err)
	}
}

func TestPreflightUnauthorized(t *testing.T) {
	client, _ := newAccessClient(nil)
	client.PrependReactor("get", "version", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewUnauthorized("Unauthorized")
	})
	_, err := Preflight(context.Background(), client, Target{Kind: TargetPod, Name: "app", Namespace: "ns"}, "https://api:6443")
	want := "the API server at https://api:6443 rejected the credentials (401 Unauthorized): check the kubeconfig's user"
	if err == nil || err.Error() != want {
		t.Errorf("Preflight error = %v, want %q", err, want)
	}
}

// contextDiscovery answers the version only when asked with a context, which it honours, as
// the real discovery client does over HTTP; asked without one it fails.
type contextDiscovery struct{ *fakediscovery.FakeDiscovery }

func (contextDiscovery) ServerVersion() (*version.Info, error) {
	return nil, errors.New("ServerVersion called without a context: nothing bounds it")
}

func (contextDiscovery) ServerVersionWithContext(ctx context.Context) (*version.Info, error) {
	<-ctx.Done()
	return nil, &url.Error{Op: "Get", URL: "https://api:6443/version", Err: ctx.Err()}
}

type contextDiscoveryClient struct{ *fake.Clientset }

func (c contextDiscoveryClient) Discovery() discovery.DiscoveryInterfaces {
	return contextDiscovery{c.Clientset.Discovery().(*fakediscovery.FakeDiscovery)}
}

// TestPreflightVersionHonoursContext checks that the first request, the server's version, is
// bounded by Preflight's context: a server that never answers must not hang it.
func TestPreflightVersionHonoursContext(t *testing.T) {
	client, _ := newAccessClient(nil)
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second)) // already past
	defer cancel()
	_, err := Preflight(ctx, contextDiscoveryClient{client}, Target{Kind: TargetPod, Name: "app", Namespace: "ns"}, "https://api:6443")
	want := fmt.Sprintf("the API server at https://api:6443 did not answer within %s", PreflightTimeout)
	if err == nil || err.Error() != want {
		t.Errorf("Preflight error = %v, want %q", err, want)
	}
}

func TestExplain(t *testing.T) {
	const server = "https://api:6443"
	refused := &url.Error{Op: "Get", URL: server + "/version",
		Err: &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}}
	other := errors.New("something else")
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"nil", nil, nil},
		{"401", apierrors.NewUnauthorized("Unauthorized"),
			errors.New("the API server at https://api:6443 rejected the credentials (401 Unauthorized): check the kubeconfig's user")},
		{"403", apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errors.New(`User "dev" cannot list resource "pods" in API group "" in the namespace "ns"`)),
			errors.New(`pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "ns"`)},
		{"connection refused", refused,
			errors.New("cannot reach the API server at https://api:6443: dial tcp: connect: connection refused")},
		{"deadline", context.DeadlineExceeded,
			errors.New("the API server at https://api:6443 did not answer within 15s")},
		{"deadline inside a url.Error", &url.Error{Op: "Get", URL: server, Err: context.DeadlineExceeded},
			errors.New("the API server at https://api:6443 did not answer within 15s")},
		{"anything else is kept", other, other},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Explain(tt.err, server)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Explain(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}
