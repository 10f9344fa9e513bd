package watch

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	authv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
)

func TestCanReadLogs(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name             string
		allow            func(authv1.ResourceAttributes) (bool, string)
		err              error
		logs, nodeLogs   LogAccess
		wantLog, wantNod authv1.ResourceAttributes
	}{
		{name: "allowed", allow: func(authv1.ResourceAttributes) (bool, string) { return true, "" },
			logs: LogAccess{Allowed: true}, nodeLogs: LogAccess{Allowed: true}},
		{name: "denied", allow: func(a authv1.ResourceAttributes) (bool, string) { return false, "RBAC: no " + a.Subresource },
			logs:     LogAccess{Why: `not allowed to read the pods' logs (get pods/log) in namespace "ns": RBAC: no log`},
			nodeLogs: LogAccess{Why: "not allowed to read the kubelet's log (get nodes/proxy): RBAC: no proxy"}},
		{name: "cannot ask", err: errors.New("the server could not find the requested resource"),
			logs: LogAccess{Allowed: true}, nodeLogs: LogAccess{Allowed: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := fake.NewClientset()
			var asked []authv1.ResourceAttributes
			c.PrependReactor("create", "selfsubjectaccessreviews", func(a clienttesting.Action) (bool, runtime.Object, error) {
				r := a.(clienttesting.CreateAction).GetObject().(*authv1.SelfSubjectAccessReview)
				asked = append(asked, *r.Spec.ResourceAttributes)
				if tc.err != nil {
					return true, nil, tc.err
				}
				r.Status.Allowed, r.Status.Reason = tc.allow(*r.Spec.ResourceAttributes)
				return true, r, nil
			})
			got := []LogAccess{CanReadLogs(ctx, c, "ns"), CanReadNodeLogs(ctx, c)}
			if diff := cmp.Diff(got, []LogAccess{tc.logs, tc.nodeLogs}); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
			want := []authv1.ResourceAttributes{{Namespace: "ns", Verb: "get", Resource: "pods", Subresource: "log"},
				{Verb: "get", Resource: "nodes", Subresource: "proxy"}}
			if diff := cmp.Diff(asked, want); diff != "" {
				t.Errorf("asked (-got +want):\n%s", diff)
			}
		})
	}
}
