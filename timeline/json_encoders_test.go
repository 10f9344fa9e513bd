package timeline

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestPodEncodersAgree: a pod's JSON is what encoding/json writes of its view, byte for byte,
// with strings a container controls (HTML, U+2028, control characters, invalid UTF-8), nil and
// empty lists, zero and set times, nil and set pointers, and views with every member of every
// type set (fillAll), so that a member added to a type and not to appendPodJSON fails it.
func TestPodEncodersAgree(t *testing.T) {
	hostile := "<b>&amp;</b>\u2028\u2029\x00\x1b[31m ok \"quoted\" \\ é 日本"
	at := time.Date(2026, 12, 5, 9, 0, 0, 123456789, time.UTC)
	code := int32(137)
	gap := Span{Value: time.Second, Min: -time.Millisecond, Max: 2 * time.Second}
	open := Span{Value: time.Second, Min: NoMin, Max: NoMax}
	m := Milestone{Kind: "exit", Container: hostile, Attempt: 3, At: at, Latest: at.Add(time.Second), Source: "status",
		Reason: hostile, Message: hostile, ExitCode: &code, Signal: "SIGKILL", Count: 2,
		Evidence: []Evidence{{What: hostile}}, Offset: gap, Why: hostile, Gap: &gap}
	views := []podJSON{
		{},
		{Statuses: []StatusChange{}, Milestones: []placedMilestone{}, Containers: []containerJSON{}, Gaps: []Gap{}, Findings: []Finding{}},
		{Namespace: hostile, Name: hostile, UID: hostile, Node: hostile, Owner: &OwnerRef{Kind: "Job", Name: hostile},
			Created: at, Phase: hostile, Status: hostile, Deleted: true, LastSeen: at,
			Statuses:   []StatusChange{{At: at, Status: hostile, Phase: hostile}},
			Milestones: []placedMilestone{{&m, &gap}, {&Milestone{Kind: "start", Offset: open}, &open}},
			Containers: []containerJSON{
				{Name: hostile, Kind: "sidecar", RestartCount: 3, State: hostile, Milestones: []placedMilestone{{&m, nil}},
					Segments: []Segment{{State: "running", Reason: hostile, From: at}, {From: at, To: at}},
					Logs: []runLogJSON{{Attempt: 1, RunLog: RunLog{First: at, Last: at, Lines: 7,
						PerSecond: SeqOf(LogCount{}, LogCount{Lines: 3})}}, {}}},
				{},
			},
			Gaps:     []Gap{{Name: hostile, Span: gap, Why: hostile}},
			Findings: []Finding{{ID: "x", Severity: SeverityWarning, Pod: hostile, Container: hostile, Text: hostile}},
		},
	}
	for _, s := range []string{"x", "a<b>&c", "é 日本 →", "tab\there", "\u2028", "a\xffb", hostile} { // every member of every type set
		var v podJSON
		fillAll(reflect.ValueOf(&v).Elem(), s, at)
		views = append(views, v)
	}
	for i, v := range views {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendPodJSON(nil, &v)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("view %d: encoding/json (-) and appendPodJSON (+) differ:\n%s", i, diff)
		}
		if after, _ := appendPodJSON([]byte("prefix,"), &v); string(after) != "prefix,"+string(want) {
			t.Errorf("view %d: appendPodJSON after other bytes wrote %.60q..., want them kept and the pod after", i, after)
		}
	}
	// Times encoding/json writes otherwise or refuses: a zone offset with seconds (local mean
	// time), one of a day or more, a year past 9999 or before 0.
	for _, odd := range []time.Time{at.In(time.FixedZone("LMT", 17*60+32)), at.In(time.FixedZone("far", 25*3600)),
		at.In(time.FixedZone("far", -24*3600)), at.AddDate(8000, 0, 0), at.AddDate(-2100, 0, 0)} {
		v := podJSON{Created: odd, LastSeen: at}
		want, werr := json.Marshal(v)
		got, gerr := appendPodJSON(nil, &v)
		if (werr == nil) != (gerr == nil) || werr == nil && string(got) != string(want) {
			t.Errorf("%v: encoding/json wrote %s (%v), appendPodJSON %s (%v)", odd, want, werr, got, gerr)
		}
	}
	bad := podJSON{Name: "a\xffb"}
	want, _ := json.Marshal(bad)
	got, err := appendPodJSON(nil, &bad)
	if err != nil {
		t.Fatal(err)
	}
	var w, g podJSON
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if w.Name != "a\uFFFDb" || g.Name != w.Name {
		t.Errorf("invalid UTF-8: encoding/json wrote %s, appendPodJSON %s", want, got)
	}
}

// fillAll sets every exported member of v, all the way down, to something not zero: s for a
// string, at for a time, 7 for a number, true, a new value for a pointer, two items for a list.
func fillAll(v reflect.Value, s string, at time.Time) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillAll(v.Elem(), s, at)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fillAll(v.Index(i), s, at)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(at))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillAll(v.Field(i), s, at)
			}
		}
	}
}

// TestFindingEncodersAgree: a Finding's JSON is what encoding/json writes of it, byte for byte,
// for the zero Finding, a warning, and Findings with every member set to strings a container
// controls.
func TestFindingEncodersAgree(t *testing.T) {
	encodersAgree(t, []Finding{{}, {ID: "killed-after-grace", Severity: SeverityWarning, Pod: "p", Text: "`sidecar` did not exit"}}, time.Time{})
}

// TestEventEncodersAgree: an Event's JSON is what encoding/json writes of it, byte for byte, for
// the zero Event, one with every member set, and Events with strings a container controls.
func TestEventEncodersAgree(t *testing.T) {
	at := time.Date(2026, 12, 5, 9, 0, 0, 123456789, time.UTC)
	encodersAgree(t, []Event{{}, {At: at, Object: "Pod/a", Type: "Normal", Reason: "Started", Message: "Started container app", Count: 1},
		{At: at.In(time.FixedZone("LMT", 17*60+32)), Count: -3}, {At: at.AddDate(8000, 0, 0)}}, at)
}

// encodersAgree checks that each value's AppendJSON, after other bytes, writes what encoding/json
// writes of it, or fails where encoding/json does: for values, and for one more of each string a
// container could write (every member set to it, times to at: fillAll).
func encodersAgree[T interface{ AppendJSON([]byte) ([]byte, error) }](t *testing.T, values []T, at time.Time) {
	t.Helper()
	hostile := "<b>&amp;</b>\u2028\u2029\x00\x1b[31m ok \"quoted\" \\ é 日本 a\xffb"
	for _, s := range []string{"x", "a<b>&c", "\u2028", "a\xffb", hostile} {
		var v T
		fillAll(reflect.ValueOf(&v).Elem(), s, at)
		values = append(values, v)
	}
	for i, v := range values {
		want, werr := json.Marshal(v)
		got, gerr := v.AppendJSON([]byte("prefix,"))
		if (werr == nil) != (gerr == nil) || werr == nil && string(got) != "prefix,"+string(want) {
			t.Errorf("%T %d: encoding/json wrote %s (%v), AppendJSON %s (%v)", v, i, want, werr, got, gerr)
		}
	}
}
