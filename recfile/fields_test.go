package recfile

import (
	"bytes"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/sidecar-top/sidecar-top/internal/fixture"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// translatedFields declares, once, the members of a Pod and of a core/v1 Event that
// translation (watch.Observe) reads: the schema that watch.Slim, the slim decode's wire types
// (slimdecode.go) and the token reader (fastdecode.go, tokenread.go) each keep. A path names a
// JSON member from the object's top, and all it holds; [] stands for every element of a list,
// and a path that ends in [] for the list's elements being there (not what they hold). A
// member that is an object declares what it holds, and its being there
// (spec.containers[].lifecycle.preStop).
//
// TestTranslatedFieldsAreDeclared holds it to what translation reads; a member that translation
// starts to read fails it until it is declared here, and then
// TestFastDecodeReadsEveryTranslatedField fails until the fast decoder reads it.
var translatedFields = map[string][]string{
	"Pod": {
		"metadata.name", "metadata.namespace", "metadata.uid",
		"metadata.resourceVersion", "metadata.creationTimestamp", "metadata.deletionTimestamp",
		"metadata.deletionGracePeriodSeconds", "metadata.ownerReferences[].controller", "metadata.ownerReferences[].kind",
		"metadata.ownerReferences[].name", "metadata.ownerReferences[].uid",
		"spec.nodeName", "spec.restartPolicy", "spec.terminationGracePeriodSeconds",
		"spec.overhead", "spec.resources", "spec.readinessGates[]", "spec.readinessGates[].conditionType",
		"spec.initContainers[]", "spec.containers[]", "spec.ephemeralContainers[]",
		"spec.initContainers[].name", "spec.initContainers[].restartPolicy",
		"spec.initContainers[].resources", "spec.initContainers[].lifecycle.postStart",
		"spec.initContainers[].lifecycle.preStop", "spec.initContainers[].startupProbe",
		"spec.initContainers[].readinessProbe", "spec.initContainers[].livenessProbe",
		"spec.containers[].name", "spec.containers[].restartPolicy",
		"spec.containers[].resources", "spec.containers[].lifecycle.postStart",
		"spec.containers[].lifecycle.preStop", "spec.containers[].startupProbe",
		"spec.containers[].readinessProbe", "spec.containers[].livenessProbe",
		"spec.ephemeralContainers[].name", "spec.ephemeralContainers[].restartPolicy",
		"spec.ephemeralContainers[].lifecycle.postStart",
		"spec.ephemeralContainers[].lifecycle.preStop", "spec.ephemeralContainers[].startupProbe",
		"spec.ephemeralContainers[].readinessProbe", "spec.ephemeralContainers[].livenessProbe",
		"status.phase", "status.reason", "status.conditions[]", "status.conditions[].type",
		"status.conditions[].status", "status.conditions[].reason", "status.conditions[].message",
		"status.conditions[].lastTransitionTime",
		"status.initContainerStatuses[]", "status.initContainerStatuses[].name", "status.initContainerStatuses[].containerID",
		"status.initContainerStatuses[].ready", "status.initContainerStatuses[].restartCount",
		"status.initContainerStatuses[].started", "status.initContainerStatuses[].state",
		"status.initContainerStatuses[].lastState.terminated",
		"status.containerStatuses[].name", "status.containerStatuses[].containerID",
		"status.containerStatuses[].ready", "status.containerStatuses[].restartCount",
		"status.containerStatuses[].started", "status.containerStatuses[].state",
		"status.containerStatuses[].lastState.terminated",
		"status.ephemeralContainerStatuses[].name", "status.ephemeralContainerStatuses[].containerID",
		"status.ephemeralContainerStatuses[].ready", "status.ephemeralContainerStatuses[].restartCount",
		"status.ephemeralContainerStatuses[].started", "status.ephemeralContainerStatuses[].state",
		"status.ephemeralContainerStatuses[].lastState.terminated",
	},
	"Event": {
		"metadata.name", "metadata.namespace", "metadata.uid", "involvedObject.kind",
		"involvedObject.name", "involvedObject.uid", "involvedObject.fieldPath", "type",
		"reason", "message", "reportingComponent", "source.component",
		"count", "firstTimestamp", "lastTimestamp", "eventTime",
		"series.count", "series.lastObservedTime",
	},
}

// translationBases are the objects whose members are changed one by one, by kind: a pod with
// one of everything, one with what real pods carry, and one with nothing but its name; a rich
// Event, and one whose source and last time are only those of its older fields (translation
// reads those only where the newer are empty).
func translationBases() map[string][]runtime.Object {
	pods := []runtime.Object{fixture.SidecarPod(), fixture.RichPod(), &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}}}
	for _, p := range pods {
		p.(*corev1.Pod).TypeMeta = metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}
	}
	older := fixture.RichEvent()
	older.ReportingController, older.LastTimestamp = "", metav1.Time{}
	events := []runtime.Object{fixture.RichEvent(), older}
	for _, e := range events {
		e.(*corev1.Event).TypeMeta = metav1.TypeMeta{Kind: "Event", APIVersion: "v1"}
	}
	return map[string][]runtime.Object{"Pod": pods, "Event": events}
}

// observeObject is watch.Observe of obj, received at a fixed time.
func observeObject(obj runtime.Object) (timeline.Observation, bool) {
	return watch.Observe(watch.Item{Time: fixture.At(100), Type: timeline.Modified, Object: obj})
}

// changed is a base object (with what the change needs first) and a copy of it with one member
// changed.
type changed struct{ base, obj runtime.Object }

// translatedChanges are, by kind and path, the changes to a member of a base object that change
// its observation: what translation reads, found by trying every member.
var translatedChanges = sync.OnceValue(func() map[string]map[string][]changed {
	out := map[string]map[string][]changed{}
	for kind, bases := range translationBases() {
		out[kind] = map[string][]changed{}
		for _, base := range bases {
			walkChanges(base, func(c fieldChange) {
				reached, obj := base.DeepCopyObject(), base.DeepCopyObject()
				c.reach(reached)
				c.change(obj)
				before, _ := observeObject(reached)
				if after, _ := observeObject(obj); !reflect.DeepEqual(before, after) {
					out[kind][c.path] = append(out[kind][c.path], changed{base: reached, obj: obj})
				}
			})
		}
	}
	return out
})

// covers reports whether the declared path is path or holds it (a member of it, at any depth);
// a declared list's elements (a path that ends in []) hold nothing more.
func covers(declared, path string) bool {
	if strings.HasSuffix(declared, "[]") {
		return path == declared
	}
	return path == declared || strings.HasPrefix(path, declared+".") || strings.HasPrefix(path, declared+"[")
}

// TestTranslatedFieldsAreDeclared: every member of a Pod or a core/v1 Event whose change
// changes what translation makes of it is declared in translatedFields (or is inside one
// declared), and every member declared there holds one (the declaration kept true both ways).
func TestTranslatedFieldsAreDeclared(t *testing.T) {
	for kind, declared := range translatedFields {
		read := translatedChanges()[kind]
		var found []string
		for p := range read {
			found = append(found, p)
		}
		sort.Strings(found)
		for _, p := range found {
			if !slices.ContainsFunc(declared, func(d string) bool { return covers(d, p) }) {
				t.Errorf("%s: translation reads %s, which translatedFields does not declare", kind, p)
			}
		}
		for _, d := range declared {
			if !slices.ContainsFunc(found, func(p string) bool { return covers(d, p) }) {
				t.Errorf("%s: translatedFields declares %s, but no change to it changes the observation", kind, d)
			}
		}
	}
}

// maxChangesChecked bounds the changes of one declared member that are read back.
const maxChangesChecked = 6

// TestFastDecodeReadsEveryTranslatedField: for every member translatedFields declares, objects
// with that member changed (up to maxChangesChecked of each) are written as recording lines and
// read by the token (the fast decoder, which must take each line), by the token into one object
// per worker (transient), and by the library into the slim wire types; each gives the
// observation of the whole object decoded by the library, which is not that of the object
// before the change. What watch.Slim keeps of each object translates as the object does.
func TestFastDecodeReadsEveryTranslatedField(t *testing.T) {
	for kind, declared := range translatedFields {
		read := translatedChanges()[kind]
		for _, d := range declared {
			n := 0
			for path, changes := range read {
				if !covers(d, path) {
					continue
				}
				for _, c := range changes[:min(len(changes), maxChangesChecked)] {
					checkSlim(t, kind+" "+path, c)
					if checkFastDecode(t, kind+" "+path, c) {
						n++
					}
				}
			}
			if n == 0 {
				t.Errorf("%s %s: no change to it that a recording holds", kind, d)
			}
		}
	}
}

// checkFastDecode reads c's object, written as a recording line, by the token, transient and
// slim by the library, and compares each observation with the library's of the whole object.
// It reports false, checking nothing, for a change that does not survive the recording line.
func checkFastDecode(t *testing.T, name string, c changed) (checked bool) {
	t.Helper()
	line, base := recordedLine(t, c.obj), recordedLine(t, c.base)
	want := decodeOrFail(t, newLineDecoder(), line).Obs
	if before := decodeOrFail(t, newLineDecoder(), base).Obs; cmp.Equal(want, before) {
		return false // a change a recording cannot hold (a time made zero is written null)
	}
	tok := newSlimLineDecoder(false)
	l := wireLine{Object: wireObject{specs: &tok.specs, slim: tok.slim}}
	if !tok.tokenLine(line, &l) {
		t.Errorf("%s: the token reader gave up on %s", name, line)
	}
	lib, err := newSlimLineDecoder(false).decodeWithLibrary(line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	for way, got := range map[string]timeline.Observation{
		"by the token":         decodeOrFail(t, newSlimLineDecoder(false), line).Obs,
		"transient":            decodeOrFail(t, newSlimLineDecoder(true), line).Obs,
		"slim, by the library": lib.Obs,
	} {
		if diff := observationDiff(want, got); diff != "" {
			t.Errorf("%s: read %s, the observation differs (-whole +%s):\n%s", name, way, way, diff)
		}
	}
	return true
}

// checkSlim compares the observations of c's object and of what watch.Slim keeps of it.
func checkSlim(t *testing.T, name string, c changed) {
	t.Helper()
	want, _ := observeObject(c.obj)
	got, _ := observeObject(watch.Slim(c.obj.DeepCopyObject()).(runtime.Object))
	if diff := observationDiff(want, got); diff != "" {
		t.Errorf("%s: watch.Slim of the object translates differently (-whole +slim):\n%s", name, diff)
	}
}

// observationDiff is cmp.Diff of two observations, found quicker where they are alike in memory.
func observationDiff(want, got timeline.Observation) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	return cmp.Diff(want, got)
}

// recordedLine is obj as a recording's item line.
func recordedLine(t *testing.T, obj runtime.Object) []byte {
	t.Helper()
	var buf bytes.Buffer
	rec := &Recorder{w: &buf}
	if err := rec.Write(watch.Item{Time: fixture.At(100).Add(123 * time.Millisecond), Type: timeline.Modified, Object: obj}); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func decodeOrFail(t *testing.T, d *lineDecoder, line []byte) decoded {
	t.Helper()
	got, err := d.decode(line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return got
}
