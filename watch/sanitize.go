package watch

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// Redacted names what Sanitize removes wherever it is, as a recording's header lists it: the
// server's bookkeeping of who set which field, kubectl apply's copy of the manifest (which holds
// every literal value of it), and the literal values of environment variables of every
// container, init container and ephemeral container, of Pods and of Jobs' pod templates. Names
// are kept, and so are valueFrom and envFrom, which name a Secret or ConfigMap and a key but hold
// no data.
var Redacted = []string{
	"metadata.managedFields",
	"metadata.annotations[" + lastApplied + "]",
	"spec.containers[*].env[*].value",
	"spec.initContainers[*].env[*].value",
	"spec.ephemeralContainers[*].env[*].value",
	"spec.template.metadata.managedFields",
	"spec.template.metadata.annotations[" + lastApplied + "]",
	"spec.template.spec.containers[*].env[*].value",
	"spec.template.spec.initContainers[*].env[*].value",
}

// Sanitize prepares an object for the cache and for a recording, in place: it sets the kind
// and apiVersion the typed client leaves empty, and removes what a bug report must not carry
// and a timeline does not need: managedFields, the last-applied annotation, and environment
// values (names are kept; valueFrom references name Secrets and ConfigMaps but hold no data).
// It fits cache.TransformFunc.
func Sanitize(obj any) (any, error) {
	switch o := obj.(type) {
	case *corev1.Pod:
		o.TypeMeta = metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}
		cleanMeta(&o.ObjectMeta)
		cleanPodSpec(&o.Spec)
	case *corev1.Event:
		o.TypeMeta = metav1.TypeMeta{Kind: "Event", APIVersion: "v1"}
		cleanMeta(&o.ObjectMeta)
	case *eventsv1.Event:
		o.TypeMeta = metav1.TypeMeta{Kind: "Event", APIVersion: "events.k8s.io/v1"}
		cleanMeta(&o.ObjectMeta)
	case *batchv1.Job:
		o.TypeMeta = metav1.TypeMeta{Kind: "Job", APIVersion: "batch/v1"}
		cleanMeta(&o.ObjectMeta)
		cleanMeta(&o.Spec.Template.ObjectMeta)
		cleanPodSpec(&o.Spec.Template.Spec)
	}
	return obj, nil
}

func cleanMeta(m *metav1.ObjectMeta) {
	m.ManagedFields = nil
	if _, ok := m.Annotations[lastApplied]; ok {
		delete(m.Annotations, lastApplied)
		if len(m.Annotations) == 0 {
			m.Annotations = nil
		}
	}
}

func cleanPodSpec(s *corev1.PodSpec) {
	for i := range s.InitContainers {
		cleanEnv(s.InitContainers[i].Env)
	}
	for i := range s.Containers {
		cleanEnv(s.Containers[i].Env)
	}
	for i := range s.EphemeralContainers {
		cleanEnv(s.EphemeralContainers[i].Env)
	}
}

func cleanEnv(env []corev1.EnvVar) {
	for i := range env {
		env[i].Value = ""
	}
}
