// Package synth makes big recordings from real ones, for benchmarks: N copies of a Job's pod,
// or a crash loop extended to R restarts. It is a Go port of the shared tools/gen_recording.py
// (the same recordings, byte order of keys aside), so that `go test -bench` needs nothing outside the
// module, but for the crash loop, whose statuses the shared tool gets wrong (see Restarts).
// It works on the recording format (JSON Lines) only, not on the project's code.
package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

type line = map[string]any

func read(src []byte) (head line, items []line, err error) {
	for _, l := range bytes.Split(src, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var m line
		if err := json.Unmarshal(l, &m); err != nil {
			return nil, nil, err
		}
		items = append(items, m)
	}
	if len(items) > 0 && items[0]["kind"] == "SidecarTopRecording" {
		return items[0], items[1:], nil
	}
	return nil, items, nil
}

func write(head line, items []line) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if head != nil {
		_ = enc.Encode(head)
	}
	for _, it := range items {
		_ = enc.Encode(it)
	}
	return b.Bytes()
}

var stamp = regexp.MustCompile(`^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z$`)

// shiftStamp moves an RFC 3339 UTC time by d, keeping its precision.
func shiftStamp(s string, d time.Duration) string {
	m := stamp.FindStringSubmatch(s)
	if m == nil {
		return s
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	t = t.Add(d)
	out := t.UTC().Format("2006-01-02T15:04:05")
	if frac := m[2]; frac != "" {
		digits := len(frac) - 1
		out += "." + fmt.Sprintf("%09d", t.Nanosecond())[:digits]
	}
	return out + "Z"
}

// shift moves every time in v by d, except under the keys in keep.
func shift(v any, d time.Duration, keep map[string]bool) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if !keep[k] {
				x[k] = shift(e, d, keep)
			}
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = shift(e, d, keep)
		}
		return x
	case string:
		return shiftStamp(x, d)
	}
	return v
}

// eventName moves the UnixNano stamp of an Event's name (<object>.<hex>) by d.
func eventName(name string, d time.Duration) string {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return name
	}
	n, err := strconv.ParseInt(name[i+1:], 16, 64)
	if err != nil {
		return name
	}
	return name[:i+1] + strconv.FormatInt(n+int64(d), 16)
}

func obj(it line) line { o, _ := it["object"].(map[string]any); return o }

func meta(o line) line { m, _ := o["metadata"].(map[string]any); return m }

func deepCopy(v line) line {
	b, _ := json.Marshal(v)
	var out line
	_ = json.Unmarshal(b, &out)
	return out
}

// Pods makes n copies of every pod in src (new names and UIDs, times shifted by i×100 ms), with
// the Events about them, keeping src's other objects once. Each copy's Events have UIDs of their
// own, and every line of the result a resourceVersion of its own, rising with its time, as an API
// server gives them. The shared gen_recording.py keeps the source's Event UIDs and resourceVersions
// in every copy: an Event is known by its UID, so there all the copies' Events were the first
// copy's Events seen again, and the pods of every other copy had none (TestPodsHaveTheirEvents).
func Pods(n int, src []byte) ([]byte, error) {
	head, items, err := read(src)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	var order []string
	for _, it := range items {
		if o := obj(it); o["kind"] == "Pod" {
			name, _ := meta(o)["name"].(string)
			if _, ok := names[name]; !ok {
				order = append(order, name)
			}
			names[name], _ = meta(o)["uid"].(string)
		}
	}
	var eventUIDs []string // of the Events about the pods, in the order first seen
	var perPod, res []line
	for _, it := range items {
		o := obj(it)
		inv, _ := o["involvedObject"].(map[string]any)
		if inv == nil {
			inv, _ = o["regarding"].(map[string]any)
		}
		invName, _ := inv["name"].(string)
		if _, ok := names[invName]; o["kind"] == "Pod" || ok {
			perPod = append(perPod, it)
			if uid, _ := meta(o)["uid"].(string); o["kind"] != "Pod" && uid != "" && !slices.Contains(eventUIDs, uid) {
				eventUIDs = append(eventUIDs, uid)
			}
		} else {
			res = append(res, it)
		}
	}
	text, _ := json.Marshal(perPod)
	for i := range n {
		d := time.Duration(i) * 100 * time.Millisecond
		// The copy's names and UIDs, in one pass over the text (no old string can match
		// inside another's replacement, so one pass is what replacing each in turn gave).
		var pairs []string
		for k, name := range order {
			pairs = append(pairs, names[name], fmt.Sprintf("00000000-0000-4000-8%03d-%012d", k, i),
				`"`+name, fmt.Sprintf(`"%s-%06d`, name, i))
		}
		for k, uid := range eventUIDs {
			pairs = append(pairs, uid, fmt.Sprintf("00000000-0000-4000-9%03d-%012d", k, i))
		}
		t := strings.NewReplacer(pairs...).Replace(string(text))
		var copies []line
		if err := json.Unmarshal([]byte(t), &copies); err != nil {
			return nil, err
		}
		for _, it := range copies {
			it = shift(it, d, nil).(map[string]any)
			if o := obj(it); o["kind"] == "Event" {
				name, _ := meta(o)["name"].(string)
				meta(o)["name"] = eventName(name, d)
			}
			res = append(res, it)
		}
	}
	sort.SliceStable(res, func(i, j int) bool { return res[i]["time"].(string) < res[j]["time"].(string) })
	for k, it := range res {
		if m := meta(obj(it)); m != nil {
			m["resourceVersion"] = strconv.Itoa(100000 + k)
		}
	}
	return write(head, res), nil
}

// Restarts extends src, which must end with one crash-loop cycle of 7 lines (as the real
// crashing-sidecar recording does), by repeating that cycle until the crashing container has
// restarted r times: a loop as the kubelet reports it. Each cycle comes one period after the one
// before, the period of the real cycle (from the start of the run before it to its own), so the
// status's last state, the Ready condition's transition and the times of every line follow on
// from the cycle before; each new run has a container ID of its own, which the statuses after it
// name as the run that ended (a waiting status names the run it waits after, as the kubelet's do).
//
// The shared gen_recording.py repeats the cycle every 20 s, though the real one came 56 s after
// the cycle before it: so each cycle's first status says the run before ended 35 s before that
// run began, and its waiting statuses name the containers of runs one and two back.
// RestartsAsShared makes that loop, byte order of keys aside.
func Restarts(r int, src []byte) ([]byte, error) { return restarts(r, src, false) }

// RestartsAsShared is the loop the shared gen_recording.py makes (see Restarts).
func RestartsAsShared(r int, src []byte) ([]byte, error) { return restarts(r, src, true) }

func restarts(r int, src []byte, shared bool) ([]byte, error) {
	head, items, err := read(src)
	if err != nil {
		return nil, err
	}
	if len(items) < 7 {
		return nil, fmt.Errorf("synth: %d items, want a crash-loop cycle of 7 at the end", len(items))
	}
	body, cycle := items[:len(items)-7], items[len(items)-7:]
	var crashName string
	k0 := -1
	for _, it := range cycle {
		if o := obj(it); o["kind"] == "Pod" {
			for _, c := range statuses(o) {
				if rc := int(c["restartCount"].(float64)); rc > k0 {
					k0, crashName = rc, c["name"].(string)
				}
			}
			break
		}
	}
	k0++
	period := 20 * time.Second
	ids := map[int]string{} // the crashing container's runs' IDs, by attempt
	for _, it := range items {
		if o := obj(it); o["kind"] == "Pod" {
			for _, c := range statuses(o) {
				if id, _ := c["containerID"].(string); c["name"] == crashName && id != "" && !isWaiting(c) {
					ids[int(c["restartCount"].(float64))] = id
				}
			}
		}
	}
	if !shared {
		if period, err = cyclePeriod(cycle, crashName); err != nil {
			return nil, err
		}
	}
	res := append([]line(nil), body...)
	var conds map[string]line // the last pod's conditions, by type
	for _, it := range body {
		if o := obj(it); o["kind"] == "Pod" {
			conds = conditionsOf(o)
		}
	}
	cid := func(k int) string { return fmt.Sprintf("containerd://%064x", 0xabc000+k) }
	keep := map[string]bool{"firstTimestamp": true, "creationTimestamp": true}
	for j := range max(0, r-k0+1) {
		d := time.Duration(j) * period
		for _, orig := range cycle {
			it := shift(deepCopy(orig), d, keep).(map[string]any)
			o := obj(it)
			switch o["kind"] {
			case "Pod":
				if !shared && j > 0 {
					keepTransitions(o, conds)
				}
				conds = conditionsOf(o)
				for _, c := range statuses(o) {
					if c["name"] != crashName {
						continue
					}
					c["restartCount"] = c["restartCount"].(float64) + float64(j)
					if j == 0 {
						continue
					}
					k := int(c["restartCount"].(float64))
					waiting := isWaiting(c)
					id, last := cid(k), ids[k-1] // a run's own ID, and the run before it
					switch {
					case shared && waiting:
						id, last = cid(k-1), cid(k-2)
					case shared:
						last = cid(k - 1)
					case waiting:
						last = ids[k] // it waits after run k, which ended
						id = last
					default:
						ids[k] = id
					}
					if shared && k-1 < k0 {
						last = "" // the shared tool keeps the real last state's ID here
					}
					c["containerID"] = id
					for _, s := range c["state"].(map[string]any) {
						if sm, ok := s.(map[string]any); ok {
							if _, has := sm["containerID"]; has {
								sm["containerID"] = id
							}
						}
					}
					if ls, ok := c["lastState"].(map[string]any); ok {
						if lt, ok := ls["terminated"].(map[string]any); ok && last != "" {
							lt["containerID"] = last
						}
					}
				}
			case "Event":
				count := 1.0
				if c, ok := o["count"].(float64); ok {
					count = c
				}
				o["count"] = count + float64(j)
			}
			res = append(res, it)
		}
	}
	return write(head, res), nil
}

// conditionsOf are the pod's conditions by type.
func conditionsOf(pod line) map[string]line {
	st, _ := pod["status"].(map[string]any)
	list, _ := st["conditions"].([]any)
	out := map[string]line{}
	for _, c := range list {
		if cm, ok := c.(map[string]any); ok {
			out[fmt.Sprint(cm["type"])] = cm
		}
	}
	return out
}

// keepTransitions gives each condition of the pod that has the status it had in before the
// transition time it had there: the API moves a condition's lastTransitionTime only when its
// status changes. (The real cycle's first status has Ready go False a second after the run
// before it ended; its last status has it go False in the second its own run ended.)
func keepTransitions(pod line, before map[string]line) {
	for t, c := range conditionsOf(pod) {
		if b, ok := before[t]; ok && b["status"] == c["status"] {
			c["lastTransitionTime"] = b["lastTransitionTime"]
		}
	}
}

func isWaiting(c line) bool {
	state, _ := c["state"].(map[string]any)
	_, waiting := state["waiting"]
	return waiting
}

// cyclePeriod is how long the cycle's run came after the run before it: from the start of the
// run its last state names (the run before) to the start of its own.
func cyclePeriod(cycle []line, crashName string) (time.Duration, error) {
	for _, it := range cycle {
		if obj(it)["kind"] != "Pod" {
			continue
		}
		for _, c := range statuses(obj(it)) {
			if c["name"] != crashName || isWaiting(c) {
				continue
			}
			state, _ := c["state"].(map[string]any)
			ls, _ := c["lastState"].(map[string]any)
			lt, _ := ls["terminated"].(map[string]any)
			for _, s := range state {
				sm, _ := s.(map[string]any)
				now, err1 := time.Parse(time.RFC3339, fmt.Sprint(sm["startedAt"]))
				before, err2 := time.Parse(time.RFC3339, fmt.Sprint(lt["startedAt"]))
				if err1 == nil && err2 == nil && now.After(before) {
					return now.Sub(before), nil
				}
			}
		}
	}
	return 0, fmt.Errorf("synth: the cycle shows no run of %s after another, to time the loop by", crashName)
}

func statuses(pod line) []line {
	st, _ := pod["status"].(map[string]any)
	var out []line
	for _, key := range []string{"initContainerStatuses", "containerStatuses"} {
		list, _ := st[key].([]any)
		for _, c := range list {
			if cm, ok := c.(map[string]any); ok {
				out = append(out, cm)
			}
		}
	}
	return out
}
