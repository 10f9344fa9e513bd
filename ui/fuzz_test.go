package ui

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// fuzzTime is a time from a fuzzed number: now and then zero, 1970, 2099 or saturating, else
// seconds around t0.
func fuzzTime(v int64) time.Time {
	switch v % 11 {
	case 0:
		return time.Time{}
	case 1:
		return time.Unix(0, 0)
	case 2:
		return time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)
	case 3:
		return t0.Add(time.Duration(v) * time.Hour) // saturates
	}
	return t0.Add(time.Duration(v%100_000) * 37 * time.Millisecond)
}

// fuzzPod is a pod made of fuzzed texts (split at '|') and times: every field the view shows.
func fuzzPod(text string, times []int64) *timeline.Pod {
	parts := strings.Split(text, "|")
	str := func(i int) string { return parts[i%len(parts)] }
	tm := func(i int) time.Time {
		if len(times) == 0 {
			return t0
		}
		return fuzzTime(times[i%len(times)])
	}
	dur := func(i int) time.Duration {
		if len(times) == 0 {
			return 0
		}
		return time.Duration(times[(i*7)%len(times)])
	}
	p := timeline.Pod{Namespace: str(0), Name: str(1), UID: "uid-fuzz", Node: str(2), Created: tm(0), LastSeen: tm(1),
		Phase: str(3), Status: str(4), Deleted: len(times)%2 == 1, Owner: &timeline.OwnerRef{Kind: "Job", Name: str(5)}}
	kinds := []timeline.MilestoneKind{timeline.MCreated, timeline.MStart, timeline.MReady, timeline.MExit,
		timeline.MRestart, timeline.MSigterm, timeline.MCondition, timeline.MilestoneKind(str(6))}
	sources := []timeline.Source{timeline.SourceEvent, timeline.SourceInferred, timeline.Source(str(7))}
	mk := func(i int, container string) timeline.Milestone {
		at := tm(i + 2)
		code := int32(i % 3)
		return timeline.Milestone{Kind: kinds[i%len(kinds)], Container: container, Attempt: int32(i % 4), At: at,
			Earliest: at.Add(-dur(i)), Latest: at.Add(dur(i + 1)), Source: sources[i%len(sources)],
			Reason: str(i + 3), Message: str(i + 4), Signal: str(i + 5), ExitCode: &code, Count: int32(i % 5),
			Offset: timeline.Span{Value: dur(i + 2), Min: dur(i + 3), Max: dur(i + 4)}}
	}
	var row []timeline.Milestone
	for i := range 1 + len(times)%5 {
		row = append(row, mk(i, ""))
	}
	p.Milestones = timeline.SeqOf(row...)
	for i := range 1 + len(parts)%4 {
		p.Statuses = append(p.Statuses, timeline.StatusChange{At: tm(i + 5), Status: str(i + 8)})
	}
	states := []timeline.LaneState{timeline.StatePending, timeline.StateRunning, timeline.StateReady,
		timeline.StateTerminated, timeline.LaneState(str(9))}
	for c := range 1 + len(text)%4 {
		name := str(c + 10)
		ct := timeline.Container{Name: name, Kind: timeline.ContainerKind(str(c + 11)), RestartCount: int32(c * 3),
			State: str(c + 12), Since: tm(c), End: tm(c + 9)}
		var runs []*timeline.Run
		for a := range 1 + c {
			r := &timeline.Run{Attempt: int32(a)}
			for i := range 3 {
				r.Milestones = append(r.Milestones, mk(a*3+i+c, name))
				r.Changes = append(r.Changes, timeline.StateChange{At: tm(a*3 + i + c), State: states[(a+i)%len(states)], Reason: str(i)})
			}
			runs = append(runs, r)
		}
		ct.Runs = timeline.SeqOf(runs...)
		p.Containers = append(p.Containers, ct)
	}
	p.Gaps = []timeline.Gap{{Name: str(13), Span: timeline.Span{Value: dur(1), Min: dur(2), Max: dur(3)}}}
	var evs []timeline.Event
	for i := range 1 + len(times)%4 {
		evs = append(evs, timeline.Event{At: tm(i + 3), Object: str(i + 14), Container: str(i + 15), Type: str(i),
			Reason: str(i + 16), Message: str(i + 17), Count: int32(i)})
	}
	p.Events = timeline.SeqOf(evs...)
	return p.WithFindings([]timeline.Finding{
		{Severity: timeline.SeverityWarning, Pod: str(1), Container: str(10), Text: str(18)},
		{Severity: timeline.Severity(str(19)), Pod: str(20), Text: str(21)},
	})
}

// fuzzKeys are the named keys a character of FuzzView's keys stands for; any other character is
// typed as itself.
var fuzzKeys = map[rune]string{
	'\t': "tab", '\r': "enter", '\x1b': "esc", '\x7f': "backspace", '\x01': "pgup", '\x02': "pgdown",
	'\x03': "left", '\x04': "right", '\x05': "up", '\x06': "down", '\x07': "home", '\x08': "end",
}

// FuzzView draws pods of random texts and times at random sizes after random keys (the picker,
// searches, paging and panning among them), live and in replay, and prints them as plain text:
// nothing may panic or hang, every line fits, and nothing the terminal would obey or hide gets
// through. Its seeds run in go test.
func FuzzView(f *testing.F) {
	for _, h := range hostileText {
		f.Add(h+"|"+h, int64(5), int64(120), uint8(120), uint8(40), "jn+")
	}
	f.Add("ns|pod|node|Running|Running|job|odd|src|a|b|c|d|e|f|g|h|i|j|k|l|m|n", int64(0), int64(1), uint8(80), uint8(24), "G+++")
	f.Add("日本語|ポッド|ノード|実行中", int64(2), int64(math.MaxInt64), uint8(40), uint8(10), "?j")
	f.Add("", int64(math.MinInt64), int64(3), uint8(1), uint8(1), "")
	f.Add("x|\x1b]52;c;aGk=\x07|\u202e|\u200d", int64(-7), int64(99), uint8(200), uint8(60), "f-+nnpp")
	f.Add("ns|pod|node|CrashLoopBackOff|Error", int64(4), int64(77), uint8(80), uint8(24), "P/o\x7fd\x05\r")
	f.Add("a|b|c|d|e|f|g", int64(5), int64(6), uint8(100), uint8(30), "/e\rnNN\x1be/a\x01\x02\x02")
	f.Add("\x1b[31m|日本|x", int64(8), int64(9), uint8(60), uint8(18), "+++\x03\x03h\x04l?\x02\x02\x05\x1b")
	f.Add("p|q", int64(10), int64(11), uint8(40), uint8(10), "Po\x02\x01/q\x1b\x1bP\rG\x08g\x07")
	f.Fuzz(func(t *testing.T, text string, t1, t2 int64, w, h uint8, keys string) {
		if len(text) > 20_000 || len(keys) > 32 {
			return
		}
		p := fuzzPod(text, []int64{t1, t2, t1 ^ t2, t1 / 3, t2 - t1})
		job := &timeline.Job{Name: p.Owner.Name, Namespace: p.Namespace, Created: fuzzTime(t2), Status: text,
			Milestones: []timeline.Milestone{{Kind: timeline.MCondition, Reason: "Complete", At: fuzzTime(t1 + 1)}},
			Events:     timeline.SeqOf(timeline.Event{At: fuzzTime(t1), Object: "Job/" + text, Reason: text})}
		s := timeline.Snapshot{Pods: timeline.SeqOf(p), Jobs: []*timeline.Job{job}, Notes: []string{text}}
		width, height := int(w)%220+1, int(h)%70+1
		for _, mode := range []Mode{Live, Replay} {
			m := NewModel(Config{Target: "pod/" + text, Namespace: text, Mode: mode, Control: &fakeControl{}, Styles: plainStyles()})
			next, _ := m.Update(FrameMsg{Snapshot: s, Now: fuzzTime(t1 + t2), WatchErr: fmt.Errorf("watch: %s", text)})
			m = resize(next.(Model), width, height)
			for _, k := range keys {
				name, ok := fuzzKeys[k]
				if !ok {
					name = string(k)
				}
				m = press(t, m, name)
			}
			checkSafe(t, fmt.Sprintf("view %dx%d keys %q", width, height, keys), m.View(), width, height)
		}
		var b strings.Builder
		pl := NewPlain(&b)
		pl.Update(s)
		pl.Summary(s)
		checkSafe(t, "plain", b.String(), 0, 0)
	})
}
