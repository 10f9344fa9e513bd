// Package synth makes big recordings from real ones, for benchmarks: N copies of a Job's pod,
// or a crash loop extended to R restarts. It is a Go port of the shared tools/gen_recording.py
// (the same recordings, byte order of keys aside), so that `go test -bench` needs nothing outside the module.
// It works on the recording format (JSON Lines) only, not on the project's code.
package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
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
// the Events about them, keeping src's other objects once.
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
		} else {
			res = append(res, it)
		}
	}
	text, _ := json.Marshal(perPod)
	for i := range n {
		d := time.Duration(i) * 100 * time.Millisecond
		t := string(text)
		for k, name := range order {
			t = strings.ReplaceAll(t, names[name], fmt.Sprintf("00000000-0000-4000-8%03d-%012d", k, i))
			t = strings.ReplaceAll(t, `"`+name, fmt.Sprintf(`"%s-%06d`, name, i))
		}
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
	return write(head, res), nil
}

// Restarts extends src, which must end with one crash-loop cycle of 7 lines (as the real
// crashing-sidecar recording does), by repeating that cycle every 20 s until the crashing
// container has restarted r times.
func Restarts(r int, src []byte) ([]byte, error) {
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
	res := append([]line(nil), body...)
	cid := func(k int) string { return fmt.Sprintf("containerd://%064x", 0xabc000+k) }
	keep := map[string]bool{"firstTimestamp": true, "creationTimestamp": true}
	for j := range max(0, r-k0+1) {
		d := time.Duration(j) * 20 * time.Second
		for _, orig := range cycle {
			it := shift(deepCopy(orig), d, keep).(map[string]any)
			o := obj(it)
			switch o["kind"] {
			case "Pod":
				for _, c := range statuses(o) {
					if c["name"] != crashName {
						continue
					}
					c["restartCount"] = c["restartCount"].(float64) + float64(j)
					if j == 0 {
						continue
					}
					k := int(c["restartCount"].(float64))
					state, _ := c["state"].(map[string]any)
					_, waiting := state["waiting"]
					if waiting {
						c["containerID"] = cid(k - 1)
					} else {
						c["containerID"] = cid(k)
					}
					for _, s := range state {
						if sm, ok := s.(map[string]any); ok {
							if _, has := sm["containerID"]; has {
								sm["containerID"] = c["containerID"]
							}
						}
					}
					if ls, ok := c["lastState"].(map[string]any); ok {
						if lt, ok := ls["terminated"].(map[string]any); ok && k-1 >= k0 {
							if waiting {
								lt["containerID"] = cid(k - 2)
							} else {
								lt["containerID"] = cid(k - 1)
							}
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
