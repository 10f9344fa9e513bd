package recfile

import (
	"reflect"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// A fieldChange is one change to one member of an object, found by walking its type: the
// member's JSON path ("status.containerStatuses[].state.terminated.exitCode", [] for any element
// of a list), a function that makes the change in a copy of the object, and one that makes only
// what the change needs first (the elements appended and the pointers allocated on the way to
// the member): what the change is measured against.
type fieldChange struct {
	path          string
	reach, change func(obj runtime.Object)
}

// A walkStep is how to reach a member from its parent: a struct field, an element of a list
// (appended zero when the list is shorter), or what a pointer points to (allocated zero when nil).
type walkStep struct {
	field int // struct field index, or -1
	elem  int // list index, or -1
	ptr   bool
}

// maxWalkDepth bounds the walk; no member translation could read is deeper.
const maxWalkDepth = 14

// walkChanges calls visit with changes to every member of obj, at any depth: every element of
// its lists (one zero element for an empty list), what every pointer points to (a zero value for
// a nil one), and each leaf set to each of a few values unlike the one it holds. A pointer or
// list made non-nil and nothing more is a change too (a preStop hook that is there but empty).
func walkChanges(obj runtime.Object, visit func(fieldChange)) {
	walkValue(reflect.ValueOf(obj).Elem(), "", nil, visit)
}

func walkValue(v reflect.Value, path string, steps []walkStep, visit func(fieldChange)) {
	if len(steps) > maxWalkDepth {
		return
	}
	for _, set := range leafValues(v) {
		visit(fieldChange{path: path, reach: changeAt(steps, nil), change: changeAt(steps, set)})
	}
	switch v.Kind() {
	case reflect.Pointer:
		s := append(steps[:len(steps):len(steps)], walkStep{field: -1, elem: -1, ptr: true})
		if v.IsNil() {
			visit(fieldChange{path: path, reach: changeAt(steps, nil), change: changeAt(s, nil)})
			walkValue(reflect.New(v.Type().Elem()).Elem(), path, s, visit)
			return
		}
		walkValue(v.Elem(), path, s, visit)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // bytes: a leaf
		}
		n := max(v.Len(), 1)
		for i := range n {
			s := append(steps[:len(steps):len(steps)], walkStep{field: -1, elem: i})
			if i >= v.Len() {
				visit(fieldChange{path: path + "[]", reach: changeAt(steps, nil), change: changeAt(s, nil)})
				walkValue(reflect.New(v.Type().Elem()).Elem(), path+"[]", s, visit)
				continue
			}
			walkValue(v.Index(i), path+"[]", s, visit)
		}
	case reflect.Struct:
		if isLeafStruct(v.Type()) {
			return
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			name, inline := memberName(f)
			if name == "-" {
				continue
			}
			p := path
			if !inline {
				p = strings.TrimPrefix(path+"."+name, ".")
			}
			walkValue(v.Field(i), p, append(steps[:len(steps):len(steps)], walkStep{field: i, elem: -1}), visit)
		}
	}
}

// changeAt is a change that reaches the member steps lead to, in a copy of the object, and
// sets it (set nil: reaching it is the change).
func changeAt(steps []walkStep, set func(reflect.Value)) func(runtime.Object) {
	return func(obj runtime.Object) {
		v := reflect.ValueOf(obj).Elem()
		for _, s := range steps {
			switch {
			case s.ptr:
				if v.IsNil() {
					v.Set(reflect.New(v.Type().Elem()))
				}
				v = v.Elem()
			case s.elem >= 0:
				for v.Len() <= s.elem {
					v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
				}
				v = v.Index(s.elem)
			default:
				v = v.Field(s.field)
			}
		}
		if set != nil {
			set(v)
		}
	}
}

// memberName is a struct field's member name, and whether its members are its parent's.
func memberName(f reflect.StructField) (name string, inline bool) {
	tag := f.Tag.Get("json")
	name, opts, _ := strings.Cut(tag, ",")
	if strings.Contains(opts, "inline") || f.Anonymous && name == "" {
		return "", true
	}
	if name == "" {
		name = f.Name
	}
	return name, false
}

var (
	timeType      = reflect.TypeFor[metav1.Time]()
	microTimeType = reflect.TypeFor[metav1.MicroTime]()
	quantityType  = reflect.TypeFor[resource.Quantity]()
	intOrStrType  = reflect.TypeFor[intstr.IntOrString]()
	durationType  = reflect.TypeFor[metav1.Duration]()
)

// isLeafStruct reports the structs that are one JSON value, not an object of members.
func isLeafStruct(t reflect.Type) bool {
	switch t {
	case timeType, microTimeType, quantityType, intOrStrType, durationType:
		return true
	}
	return false
}

// leafStrings are the values a string member is set to: something unlike any value, and the
// words translation compares with (a restart policy, a condition's status, an owner's kind).
var leafStrings = []string{"x-changed", "Always", "True", "False", "Pod", "Job", "spec.containers{web}", "kubelet"}

// leafValues are the settings of v, a leaf, to values unlike the one it holds (none when v is
// not a leaf). Times move by whole seconds, as a recording keeps them.
func leafValues(v reflect.Value) []func(reflect.Value) {
	var out []func(reflect.Value)
	switch t := v.Type(); {
	case t == timeType:
		old := v.Interface().(metav1.Time)
		out = append(out, func(v reflect.Value) {
			v.Set(reflect.ValueOf(metav1.NewTime(moved(old.Time))))
		})
	case t == microTimeType:
		old := v.Interface().(metav1.MicroTime)
		out = append(out, func(v reflect.Value) {
			v.Set(reflect.ValueOf(metav1.NewMicroTime(moved(old.Time))))
		})
	case t == quantityType:
		out = append(out, func(v reflect.Value) { v.Set(reflect.ValueOf(resource.MustParse("3"))) })
	case t == intOrStrType:
		out = append(out, func(v reflect.Value) { v.Set(reflect.ValueOf(intstr.FromInt32(3))) })
	case t == durationType:
		out = append(out, func(v reflect.Value) { v.Set(reflect.ValueOf(metav1.Duration{Duration: 3 * time.Second})) })
	case t.Kind() == reflect.String:
		for _, s := range leafStrings {
			if s != v.String() {
				out = append(out, func(v reflect.Value) { v.SetString(s) })
			}
		}
	case t.Kind() == reflect.Bool:
		out = append(out, func(v reflect.Value) { v.SetBool(!v.Bool()) })
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		for _, n := range []int64{v.Int() + 7, 0, -1} {
			if n != v.Int() {
				out = append(out, func(v reflect.Value) { v.SetInt(n) })
			}
		}
	case t.Kind() == reflect.Map && t.Key().Kind() == reflect.String:
		val := reflect.New(t.Elem()).Elem()
		if sets := leafValues(val); len(sets) > 0 {
			sets[0](val)
		}
		out = append(out, func(v reflect.Value) {
			m := reflect.MakeMap(t)
			m.SetMapIndex(reflect.ValueOf("cpu").Convert(t.Key()), val)
			v.Set(m)
		})
	}
	return out
}

// moved is t a second later, or a time of the fixtures' day for the zero time.
func moved(t time.Time) time.Time {
	if t.IsZero() {
		return time.Date(2026, 12, 2, 8, 40, 0, 0, time.UTC)
	}
	return t.Add(time.Second).Truncate(time.Second)
}
