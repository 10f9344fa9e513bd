package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/recordings"
)

// The Perfetto export is checked against the Trace Event Format as its specification
// ("Trace Event Format", the Google document that chrome://tracing and Perfetto's JSON importer
// follow) and against what Perfetto's importer (trace_processor's json_trace_parser) requires,
// by a strict schema check written from both: no other validator of the format is packaged for
// Go, and the tests must not download one.

// traceFile is the JSON Object Format: traceEvents, and optionally displayTimeUnit and otherData
// (a dictionary of strings). Decoding rejects any other key.
type traceFile struct {
	TraceEvents     []checkedEvent    `json:"traceEvents"`
	DisplayTimeUnit string            `json:"displayTimeUnit"`
	OtherData       map[string]string `json:"otherData"`
}

// checkedEvent is one event as the format defines its fields; decoding rejects any other field.
type checkedEvent struct {
	Name  *string         `json:"name"`
	Cat   *string         `json:"cat"`
	Ph    *string         `json:"ph"`
	Ts    *float64        `json:"ts"`
	Dur   *float64        `json:"dur"`
	Pid   *int            `json:"pid"`
	Tid   *int            `json:"tid"`
	Scope *string         `json:"s"`
	Args  json.RawMessage `json:"args"`
}

// checkTrace parses b strictly and checks every rule of the format it uses. It returns the events.
func checkTrace(t *testing.T, b []byte) []checkedEvent {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f traceFile
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("not the JSON Object Format: %v", err)
	}
	if dec.More() {
		t.Fatal("more than one JSON value")
	}
	if f.DisplayTimeUnit != "ms" && f.DisplayTimeUnit != "ns" {
		t.Errorf("displayTimeUnit %q: the format allows ms or ns", f.DisplayTimeUnit)
	}
	if len(f.TraceEvents) == 0 {
		t.Fatal("no traceEvents")
	}
	type thread struct{ pid, tid int }
	processNamed, threadNamed := map[int]bool{}, map[thread]bool{}
	used := map[thread]bool{}
	slices := map[thread][][2]float64{}
	for i, e := range f.TraceEvents {
		where := fmt.Sprintf("event %d", i)
		if e.Name == nil || e.Ph == nil || e.Pid == nil || e.Tid == nil {
			t.Errorf("%s: name, ph, pid and tid are required: %+v", where, e)
			continue
		}
		var args map[string]any
		if e.Args != nil {
			if err := json.Unmarshal(e.Args, &args); err != nil {
				t.Errorf("%s: args must be an object: %v", where, err)
			}
		}
		th := thread{*e.Pid, *e.Tid}
		switch *e.Ph {
		case "M":
			switch *e.Name {
			case "process_name":
				if _, ok := args["name"].(string); !ok {
					t.Errorf("%s: process_name without args.name", where)
				}
				processNamed[*e.Pid] = true
			case "thread_name":
				if _, ok := args["name"].(string); !ok {
					t.Errorf("%s: thread_name without args.name", where)
				}
				threadNamed[th] = true
			case "process_sort_index", "thread_sort_index":
				if n, ok := args["sort_index"].(float64); !ok || n != float64(int(n)) {
					t.Errorf("%s: %s without an integer args.sort_index", where, *e.Name)
				}
			default:
				t.Errorf("%s: metadata event %q is not one the format defines", where, *e.Name)
			}
			if e.Ts != nil || e.Dur != nil {
				t.Errorf("%s: a metadata event has no ts or dur", where)
			}
			continue
		case "X":
			if e.Dur == nil || *e.Dur < 0 {
				t.Errorf("%s: a complete event needs dur ≥ 0", where)
				continue
			}
		case "i":
			if e.Scope == nil || (*e.Scope != "t" && *e.Scope != "p" && *e.Scope != "g") {
				t.Errorf("%s: an instant event's scope s must be g, p or t", where)
			}
			if e.Dur != nil {
				t.Errorf("%s: an instant event has no dur", where)
			}
		default:
			t.Errorf("%s: phase %q is not one the export writes", where, *e.Ph)
			continue
		}
		if e.Ts == nil || *e.Ts < 0 {
			t.Errorf("%s: ts must be a number ≥ 0 (the trace starts at 0)", where)
			continue
		}
		used[th] = true
		end := *e.Ts
		if e.Dur != nil {
			end += *e.Dur
		}
		slices[th] = append(slices[th], [2]float64{*e.Ts, end})
	}
	for th := range used {
		if !processNamed[th.pid] || !threadNamed[th] {
			t.Errorf("pid %d tid %d has events but no process_name or thread_name", th.pid, th.tid)
		}
	}
	// Perfetto draws a thread's slices as a stack: any two must be disjoint or one must hold the
	// other, or its importer drops one as a misplaced end. An instant is a slice of no length.
	for th, ss := range slices {
		sort.Slice(ss, func(i, j int) bool { return ss[i][0] < ss[j][0] || ss[i][0] == ss[j][0] && ss[i][1] > ss[j][1] })
		var stack [][2]float64
		for _, s := range ss {
			for len(stack) > 0 && stack[len(stack)-1][1] <= s[0] {
				stack = stack[:len(stack)-1]
			}
			if n := len(stack); n > 0 && s[1] > stack[n-1][1] {
				t.Errorf("pid %d tid %d: slice [%v, %v] overlaps [%v, %v] without nesting", th.pid, th.tid, s[0], s[1], stack[n-1][0], stack[n-1][1])
			}
			stack = append(stack, s)
		}
	}
	return f.TraceEvents
}

// TestPerfettoFormat holds every shared recording's export to the format, and checks that it
// holds the timeline: a slice per stretch of each lane, an instant with its bounds per milestone.
func TestPerfettoFormat(t *testing.T) {
	for _, name := range recordings.Names() {
		t.Run(name, func(t *testing.T) {
			in := recording(t, name)
			var b bytes.Buffer
			if err := WritePerfetto(&b, in); err != nil {
				t.Fatal(err)
			}
			events := checkTrace(t, b.Bytes())

			type count struct{ slices, instants int }
			got, want := map[string]count{}, map[string]count{}
			for _, e := range events {
				var args map[string]any
				_ = json.Unmarshal(e.Args, &args)
				switch {
				case *e.Ph == "X" && *e.Cat == "state":
					c := got[fmt.Sprint(*e.Pid, "/", *e.Tid)]
					c.slices++
					got[fmt.Sprint(*e.Pid, "/", *e.Tid)] = c
				case *e.Ph == "i" && *e.Cat == "milestone":
					c := got[fmt.Sprint(*e.Pid, "/", *e.Tid)]
					c.instants++
					got[fmt.Sprint(*e.Pid, "/", *e.Tid)] = c
					if _, ok := args["source"].(string); !ok {
						t.Errorf("milestone %s has no source in args: %v", *e.Name, args)
					}
					for _, k := range []string{"earliest", "latest"} {
						if v, ok := args[k]; ok {
							if _, ok := v.(string); !ok {
								t.Errorf("milestone %s: %s is not a time: %v", *e.Name, k, v)
							}
						}
					}
				}
			}
			for pi, p := range in.Snapshot.Pods.Items() {
				want[fmt.Sprint(pi+1, "/", 1)] = count{instants: p.Milestones.Len()}
				for ci := range p.Containers {
					c := &p.Containers[ci]
					want[fmt.Sprint(pi+1, "/", ci+2)] = count{slices: len(c.Segments()), instants: len(c.Milestones())}
				}
			}
			for ji, j := range in.Snapshot.Jobs {
				want[fmt.Sprint(in.Snapshot.Pods.Len()+ji+1, "/", 1)] = count{instants: len(j.Milestones)}
			}
			if diff := cmp.Diff(got, want, cmp.AllowUnexported(count{})); diff != "" {
				t.Errorf("slices and instants per thread (-got +want):\n%s", diff)
			}
		})
	}
}
