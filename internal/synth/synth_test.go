package synth

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/sidecar-top/sidecar-top/recordings"
)

func crashLoop(t *testing.T) []byte {
	t.Helper()
	b, err := recordings.Bytes("crashing-sidecar")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRestartsIsAKubeletLoop: the loop Restarts makes says what a kubelet's statuses say of a
// crash loop. Each run has an ID of its own; a running or terminated status's last state is the
// run before, with the times that run had, and a waiting status's is the run that just ended;
// the lines' times never go back, nor does any time in a status; a condition's transition time
// moves only when its status does.
func TestRestartsIsAKubeletLoop(t *testing.T) {
	out, err := Restarts(40, crashLoop(t))
	if err != nil {
		t.Fatal(err)
	}
	_, items, err := read(out)
	if err != nil {
		t.Fatal(err)
	}
	type run struct{ id, started, finished string }
	runs := map[int]run{}
	byID := map[string]int{}
	conds := map[string]line{}
	var last string // the time of the line before
	maxRC := 0
	for n, it := range items {
		at, _ := it["time"].(string)
		if at < last {
			t.Fatalf("line %d at %s, before the line before it (%s)", n, at, last)
		}
		last = at
		o := obj(it)
		if o["kind"] != "Pod" {
			continue
		}
		for ty, c := range conditionsOf(o) {
			if b, ok := conds[ty]; ok && b["status"] == c["status"] && b["lastTransitionTime"] != c["lastTransitionTime"] {
				t.Errorf("line %d: condition %s stays %v but its transition moved from %v to %v", n, ty, c["status"],
					b["lastTransitionTime"], c["lastTransitionTime"])
			}
		}
		conds = conditionsOf(o)
		for _, c := range statuses(o) {
			if c["name"] != "sidecar" {
				continue
			}
			k := int(c["restartCount"].(float64))
			maxRC = max(maxRC, k)
			id, _ := c["containerID"].(string)
			state := c["state"].(map[string]any)
			ls, _ := c["lastState"].(map[string]any)
			lt, _ := ls["terminated"].(map[string]any)
			lastOf := k - 1 // the run the last state names
			if isWaiting(c) {
				lastOf = k
				if id != runs[k].id {
					t.Errorf("line %d: waiting after run %d names container %s, not the run's %s", n, k, id, runs[k].id)
				}
			} else {
				if a, seen := byID[id]; seen && a != k {
					t.Errorf("line %d: run %d has the ID of run %d", n, k, a)
				}
				byID[id] = k
				r := run{id: id}
				for _, s := range state {
					sm := s.(map[string]any)
					r.started, _ = sm["startedAt"].(string)
					r.finished, _ = sm["finishedAt"].(string)
				}
				if prev, ok := runs[k]; ok && (prev.started != r.started || prev.id != r.id) {
					t.Errorf("line %d: run %d was %+v, now %+v", n, k, prev, r)
				}
				runs[k] = r
			}
			if lt == nil || lastOf < 0 {
				continue
			}
			want := runs[lastOf]
			if got := (run{id: lt["containerID"].(string), started: lt["startedAt"].(string), finished: lt["finishedAt"].(string)}); got != want {
				t.Errorf("line %d (restart count %d): last state %+v, want run %d's %+v", n, k, got, lastOf, want)
			}
		}
	}
	if maxRC != 40 {
		t.Errorf("the loop reaches %d restarts, want 40", maxRC)
	}
}

// TestRestartsAsSharedIsTheSharedTools: RestartsAsShared makes what the shared gen_recording.py
// makes, key order aside, when the tool is there to ask.
func TestRestartsAsSharedIsTheSharedTools(t *testing.T) {
	tool := filepath.Join("..", "..", "..", "shared", "tools", "gen_recording.py")
	if _, err := os.Stat(tool); err != nil {
		t.Skip("no shared gen_recording.py beside the repository")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	dir := t.TempDir()
	in, outPy := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out.jsonl")
	src := crashLoop(t)
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("python3", tool, "restarts", "12", in, outPy).CombinedOutput(); err != nil {
		t.Fatalf("gen_recording.py: %v\n%s", err, out)
	}
	py, err := os.ReadFile(outPy)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := RestartsAsShared(12, src)
	if err != nil {
		t.Fatal(err)
	}
	pl, ol := bytes.Split(bytes.TrimSpace(py), []byte("\n")), bytes.Split(bytes.TrimSpace(ours), []byte("\n"))
	if len(pl) != len(ol) {
		t.Fatalf("%d lines, the tool's %d", len(ol), len(pl))
	}
	for i := range pl {
		var a, b any
		if err := json.Unmarshal(pl[i], &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(ol[i], &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("line %d differs:\n tool: %s\n ours: %s", i+1, pl[i], ol[i])
		}
	}
}

// TestPodsHaveTheirEvents: each copy Pods makes of a Job's pod comes with its own Events, as
// an API server would give them: each Event of each copy has a UID of its own and is about that
// copy's pod, and every line has a resourceVersion of its own, rising line by line. (With the
// source's Event UIDs in every copy, all the copies' Events were one pod's, seen again.)
func TestPodsHaveTheirEvents(t *testing.T) {
	src, err := recordings.Bytes("job-native-sidecar")
	if err != nil {
		t.Fatal(err)
	}
	_, in, err := read(src)
	if err != nil {
		t.Fatal(err)
	}
	podEvents, others := 0, 0
	for _, it := range in {
		if o := obj(it); o["kind"] == "Event" {
			if inv, _ := o["involvedObject"].(map[string]any); inv["kind"] == "Pod" {
				podEvents++
			} else {
				others++
			}
		}
	}
	if podEvents == 0 {
		t.Fatal("the source has no Events about its pod")
	}
	const n = 7
	out, err := Pods(n, src)
	if err != nil {
		t.Fatal(err)
	}
	_, items, err := read(out)
	if err != nil {
		t.Fatal(err)
	}
	pods := map[string]string{} // pod UID -> name
	for _, it := range items {
		if o := obj(it); o["kind"] == "Pod" {
			pods[meta(o)["uid"].(string)] = meta(o)["name"].(string)
		}
	}
	if len(pods) != n {
		t.Fatalf("%d pods, want %d", len(pods), n)
	}
	uids := map[string]bool{}
	perPod := map[string]int{}
	lastRV := -1
	for i, it := range items {
		o := obj(it)
		rv, err := strconv.Atoi(meta(o)["resourceVersion"].(string))
		if err != nil || rv <= lastRV {
			t.Fatalf("line %d: resourceVersion %v after %d: want a number above it", i+1, meta(o)["resourceVersion"], lastRV)
		}
		lastRV = rv
		if o["kind"] != "Event" {
			continue
		}
		uid := meta(o)["uid"].(string)
		if uids[uid] {
			t.Fatalf("line %d: Event UID %s again", i+1, uid)
		}
		uids[uid] = true
		inv, _ := o["involvedObject"].(map[string]any)
		if inv["kind"] != "Pod" {
			continue
		}
		name, ok := pods[inv["uid"].(string)]
		if !ok || name != inv["name"] {
			t.Fatalf("line %d: an Event about %v (%v), which is no pod of the result", i+1, inv["name"], inv["uid"])
		}
		perPod[name]++
	}
	if len(uids) != n*podEvents+others {
		t.Errorf("%d Events, want %d (%d about each of %d pods, %d others once)", len(uids), n*podEvents+others, podEvents, n, others)
	}
	for _, name := range pods {
		if perPod[name] != podEvents {
			t.Errorf("pod %s: %d Events, want %d", name, perPod[name], podEvents)
		}
	}
}
