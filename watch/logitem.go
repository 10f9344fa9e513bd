package watch

import (
	"errors"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Log items are what sidecar-top itself read, next to what the API server sent: a batch of a
// container run's log lines, or a line of the kubelet's own log. They travel as items like the
// API's objects (so one Source delivers them in order with the pods they belong to) and are
// recorded as item lines whose object has sidecar-top's own kind and apiVersion:
//
//	{"time":"...","type":"ADDED","object":{"kind":"ContainerLog","apiVersion":"sidecar-top.dev/v1",
//	  "namespace":"shop","pod":"checkout","podUID":"...","container":"app","containerID":"containerd://...",
//	  "attempt":0,"fromStart":true,"lines":[{"at":"2026-12-02T08:00:01.123456789Z","len":17},
//	  {"at":"...","len":14,"mark":"sigterm","text":"caught SIGTERM"}],"end":true}}
//	{"time":"...","type":"ADDED","object":{"kind":"KubeletLog","apiVersion":"sidecar-top.dev/v1",
//	  "node":"n1","at":"2026-12-02T08:00:09.512345Z","namespace":"shop","pod":"checkout","podUID":"...",
//	  "container":"envoy","containerID":"containerd://...","gracePeriod":30}}
//
// A reader of version 1 from before them skips objects of kinds it does not know, so it reads
// such a recording as one without logs: wider bounds, nothing misread. The version stays 1.
const (
	LogAPIVersion    = "sidecar-top.dev/v1"
	ContainerLogKind = "ContainerLog"
	KubeletLogKind   = "KubeletLog"
)

// ContainerLog is a batch of lines one run of a container wrote, as read from the API server's
// pods/log with timestamps: the item form of timeline.LogObservation.
type ContainerLog struct {
	metav1.TypeMeta `json:",inline"`
	Namespace       string `json:"namespace"`
	Pod             string `json:"pod"`
	PodUID          string `json:"podUID"`
	Container       string `json:"container"`
	ContainerID     string `json:"containerID,omitempty"`
	// Attempt is the run's restart count, -1 when not known (the container ID says which run).
	Attempt   int32     `json:"attempt"`
	FromStart bool      `json:"fromStart,omitempty"`
	Lines     []LogLine `json:"lines,omitempty"`
	End       bool      `json:"end,omitempty"`
}

// LogLine is one line of a ContainerLog: its stamp and length, and its text only when it
// matched a mark or the recording keeps every line's text (--record-log-text).
type LogLine struct {
	At   time.Time `json:"at"`
	Len  int       `json:"len"`
	Mark string    `json:"mark,omitempty"`
	Text string    `json:"text,omitempty"`
}

// KubeletLog is a line of the kubelet's own log saying it stops a container: the item form of
// timeline.KubeletObservation.
type KubeletLog struct {
	metav1.TypeMeta `json:",inline"`
	Node            string    `json:"node"`
	At              time.Time `json:"at"`
	Namespace       string    `json:"namespace"`
	Pod             string    `json:"pod"`
	PodUID          string    `json:"podUID"`
	Container       string    `json:"container"`
	ContainerID     string    `json:"containerID"`
	GracePeriod     int64     `json:"gracePeriod"`
}

var (
	logTypeMeta     = metav1.TypeMeta{Kind: ContainerLogKind, APIVersion: LogAPIVersion}
	kubeletTypeMeta = metav1.TypeMeta{Kind: KubeletLogKind, APIVersion: LogAPIVersion}
)

// NewContainerLog is an empty batch with its kind and apiVersion set.
func NewContainerLog() *ContainerLog { return &ContainerLog{TypeMeta: logTypeMeta} }

// NewKubeletLog is an empty kubelet line with its kind and apiVersion set.
func NewKubeletLog() *KubeletLog { return &KubeletLog{TypeMeta: kubeletTypeMeta} }

// DeepCopyObject implements runtime.Object.
func (c *ContainerLog) DeepCopyObject() runtime.Object {
	out := *c
	out.Lines = append([]LogLine(nil), c.Lines...)
	return &out
}

// DeepCopyObject implements runtime.Object.
func (k *KubeletLog) DeepCopyObject() runtime.Object {
	out := *k
	return &out
}

// Check refuses a batch that cannot be filed: no run to file it under, or a line with no
// stamp or a negative length.
func (c *ContainerLog) Check() error {
	switch {
	case c.Container == "":
		return errors.New("ContainerLog has no \"container\"")
	case c.PodUID == "" && c.Pod == "":
		return errors.New("ContainerLog has neither \"podUID\" nor \"pod\"")
	case c.Attempt < -1:
		return fmt.Errorf("ContainerLog \"attempt\" is %d, not -1 or more", c.Attempt)
	}
	for i := range c.Lines {
		switch l := &c.Lines[i]; {
		case l.At.IsZero():
			return fmt.Errorf("ContainerLog line %d has no \"at\"", i+1)
		case l.Len < 0:
			return fmt.Errorf("ContainerLog line %d has \"len\" %d", i+1, l.Len)
		}
	}
	return nil
}

// Check refuses a kubelet line that cannot be filed.
func (k *KubeletLog) Check() error {
	switch {
	case k.At.IsZero():
		return errors.New("KubeletLog has no \"at\"")
	case k.Container == "" || k.ContainerID == "":
		return errors.New("KubeletLog needs \"container\" and \"containerID\"")
	case k.PodUID == "" && k.Pod == "":
		return errors.New("KubeletLog has neither \"podUID\" nor \"pod\"")
	}
	return nil
}

// observation is the batch as the builder takes it.
func (c *ContainerLog) observation() *timeline.LogObservation {
	o := &timeline.LogObservation{Namespace: c.Namespace, Pod: c.Pod, PodUID: c.PodUID, Container: c.Container,
		ContainerID: c.ContainerID, Attempt: c.Attempt, FromStart: c.FromStart, End: c.End,
		Lines: make([]timeline.LogLine, len(c.Lines))}
	for i, l := range c.Lines {
		o.Lines[i] = timeline.LogLine{At: l.At, Len: l.Len, Mark: l.Mark}
		if l.Mark != "" {
			o.Lines[i].Text = l.Text // the builder keeps no other line's text; a replay need not either
		}
	}
	return o
}

// observation is the kubelet's line as the builder takes it.
func (k *KubeletLog) observation() *timeline.KubeletObservation {
	return &timeline.KubeletObservation{Node: k.Node, At: k.At, Namespace: k.Namespace, Pod: k.Pod,
		PodUID: k.PodUID, Container: k.Container, ContainerID: k.ContainerID, GracePeriod: k.GracePeriod}
}
