package watch

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var managed = []metav1.ManagedFieldsEntry{{Manager: "kubectl-client-side-apply", Operation: metav1.ManagedFieldsOperationUpdate}}

// dirtyMeta has what Sanitize removes, and an annotation it keeps.
func dirtyMeta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: "ns", ManagedFields: managed, Annotations: map[string]string{
		lastApplied: `{"apiVersion":"v1","kind":"Pod","spec":{"containers":[{"env":[{"name":"TOKEN","value":"s3cret"}]}]}}`,
		"keep":      "me",
	}}
}

func sanitizedMeta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: "ns", Annotations: map[string]string{"keep": "me"}}
}

var secretRef = &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
	LocalObjectReference: corev1.LocalObjectReference{Name: "creds"}, Key: "token"}}

// podSpecWithEnv has environment values in every kind of container.
func podSpecWithEnv() corev1.PodSpec {
	env := func() []corev1.EnvVar {
		return []corev1.EnvVar{{Name: "TOKEN", Value: "s3cret"}, {Name: "FROM_SECRET", ValueFrom: secretRef}}
	}
	return corev1.PodSpec{
		InitContainers: []corev1.Container{{Name: "sidecar", RestartPolicy: always, Env: env()}},
		Containers:     []corev1.Container{{Name: "app", Env: env()}},
		EphemeralContainers: []corev1.EphemeralContainer{
			{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debugger", Env: env()}}},
	}
}

// podSpecWithoutValues is podSpecWithEnv sanitized: names and references kept, values gone.
func podSpecWithoutValues() corev1.PodSpec {
	env := func() []corev1.EnvVar {
		return []corev1.EnvVar{{Name: "TOKEN"}, {Name: "FROM_SECRET", ValueFrom: secretRef}}
	}
	return corev1.PodSpec{
		InitContainers: []corev1.Container{{Name: "sidecar", RestartPolicy: always, Env: env()}},
		Containers:     []corev1.Container{{Name: "app", Env: env()}},
		EphemeralContainers: []corev1.EphemeralContainer{
			{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debugger", Env: env()}}},
	}
}

func TestSanitize(t *testing.T) {
	onlyLastApplied := metav1.ObjectMeta{Name: "p", ManagedFields: managed,
		Annotations: map[string]string{lastApplied: "{}"}}
	tests := []struct {
		name string
		in   any
		want any
	}{
		{
			name: "pod",
			in:   &corev1.Pod{ObjectMeta: dirtyMeta("p"), Spec: podSpecWithEnv()},
			want: &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
				ObjectMeta: sanitizedMeta("p"), Spec: podSpecWithoutValues()},
		},
		{
			name: "pod whose only annotation was last-applied",
			in:   &corev1.Pod{ObjectMeta: onlyLastApplied},
			want: &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: metav1.ObjectMeta{Name: "p"}},
		},
		{
			name: "core/v1 event",
			in:   &corev1.Event{ObjectMeta: dirtyMeta("e"), Reason: "Killing"},
			want: &corev1.Event{TypeMeta: metav1.TypeMeta{Kind: "Event", APIVersion: "v1"},
				ObjectMeta: sanitizedMeta("e"), Reason: "Killing"},
		},
		{
			name: "events.k8s.io/v1 event",
			in:   &eventsv1.Event{ObjectMeta: dirtyMeta("e"), Reason: "Killing"},
			want: &eventsv1.Event{TypeMeta: metav1.TypeMeta{Kind: "Event", APIVersion: "events.k8s.io/v1"},
				ObjectMeta: sanitizedMeta("e"), Reason: "Killing"},
		},
		{
			name: "job and its pod template",
			in: &batchv1.Job{ObjectMeta: dirtyMeta("j"), Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{
				ObjectMeta: dirtyMeta(""), Spec: podSpecWithEnv()}}},
			want: &batchv1.Job{TypeMeta: metav1.TypeMeta{Kind: "Job", APIVersion: "batch/v1"},
				ObjectMeta: sanitizedMeta("j"), Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{
					ObjectMeta: sanitizedMeta(""), Spec: podSpecWithoutValues()}}},
		},
		{
			name: "other kinds are left alone",
			in:   &corev1.ConfigMap{ObjectMeta: dirtyMeta("c"), Data: map[string]string{"k": "v"}},
			want: &corev1.ConfigMap{ObjectMeta: dirtyMeta("c"), Data: map[string]string{"k": "v"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Sanitize(tt.in)
			if err != nil {
				t.Fatalf("Sanitize: %v", err)
			}
			if got != tt.in {
				t.Errorf("Sanitize returned a different object; want the same one, changed in place")
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Sanitize mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
