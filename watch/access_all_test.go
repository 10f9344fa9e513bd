package watch

import (
	"context"
	"testing"

	authv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"
)

// denyAll answers every access review no, without a reason, as RBAC does.
func denyAll(action clienttesting.Action) (bool, runtime.Object, error) {
	r := action.(clienttesting.CreateAction).GetObject().(*authv1.SelfSubjectAccessReview).DeepCopy()
	r.Status.Allowed = false
	return true, r, nil
}

// TestPreflightNamesAllThatIsMissing: a user with no rights at all learns in one line every
// verb and resource the watch needs, not one at a time.
func TestPreflightNamesAllThatIsMissing(t *testing.T) {
	tests := []struct {
		target Target
		want   string
	}{
		{Target{Kind: TargetPod, Name: "app", Namespace: "ns"},
			`not allowed to list pods, watch pods, list events and watch events in namespace "ns"`},
		{Target{Kind: TargetJob, Name: "x", Namespace: "ns"},
			`not allowed to list pods, watch pods, list events, watch events, list jobs and watch jobs in namespace "ns"`},
	}
	for _, tt := range tests {
		t.Run(tt.target.String(), func(t *testing.T) {
			client, _ := newAccessClient(nil)
			client.PrependReactor("create", "selfsubjectaccessreviews", denyAll)
			_, err := Preflight(context.Background(), client, tt.target, "https://api:6443")
			if err == nil || err.Error() != tt.want {
				t.Errorf("Preflight error = %v, want %q", err, tt.want)
			}
		})
	}
}
