package timeline

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"
)

// appendPodJSON appends a pod's JSON view to b as encoding/json writes it, byte for byte,
// member by member, where an encoder found each member by reflection: a pod's milestones are
// four fifths of what replay -o json writes, and writing them by reflection was a seventh of
// its time. What is out of the ordinary (a string with a character encoding/json escapes, a time
// it refuses) is left to encoding/json itself. TestPodEncodersAgree holds it to encoding/json
// for views with every member of every type set (so a member added to one of them and not
// here fails it), with strings a container controls, nil and empty lists and pointers.
func appendPodJSON(b []byte, v *podJSON) ([]byte, error) {
	w := jsonAppender{b: b}
	w.raw(`{"namespace":`)
	w.str(v.Namespace)
	w.raw(`,"name":`)
	w.str(v.Name)
	w.raw(`,"uid":`)
	w.str(v.UID)
	if v.Node != "" {
		w.raw(`,"node":`)
		w.str(v.Node)
	}
	if v.Owner != nil {
		w.raw(`,"owner":`)
		w.owner(v.Owner)
	}
	w.raw(`,"created":`)
	w.time(v.Created)
	w.raw(`,"phase":`)
	w.str(v.Phase)
	w.raw(`,"status":`)
	w.str(v.Status)
	if v.Deleted {
		w.raw(`,"deleted":true`)
	}
	w.raw(`,"lastSeen":`)
	w.time(v.LastSeen)
	w.raw(`,"statuses":`)
	list(&w, v.Statuses, w.statusChange)
	w.raw(`,"milestones":`)
	list(&w, v.Milestones, w.placed)
	w.raw(`,"containers":`)
	list(&w, v.Containers, w.container)
	if len(v.Gaps) > 0 {
		w.raw(`,"gaps":`)
		list(&w, v.Gaps, w.gap)
	}
	if len(v.Unknown) > 0 {
		w.raw(`,"unknownGaps":`)
		list(&w, v.Unknown, w.unknownGap)
	}
	if len(v.Findings) > 0 {
		w.raw(`,"findings":`)
		list(&w, v.Findings, w.finding)
	}
	w.raw(`}`)
	return w.b, w.err
}

func (w *jsonAppender) owner(o *OwnerRef) {
	w.raw(`{"kind":`)
	w.str(o.Kind)
	w.raw(`,"name":`)
	w.str(o.Name)
	if o.UID != "" {
		w.raw(`,"uid":`)
		w.str(o.UID)
	}
	w.raw(`}`)
}

func (w *jsonAppender) statusChange(s *StatusChange) {
	w.raw(`{"at":`)
	w.time(s.At)
	w.raw(`,"status":`)
	w.str(s.Status)
	w.raw(`,"phase":`)
	w.str(s.Phase)
	w.raw(`}`)
}

func (w *jsonAppender) unknownGap(g *UnknownGap) {
	w.raw(`{"name":`)
	w.str(g.Name)
	w.raw(`,"from":`)
	w.ref(&g.From)
	w.raw(`,"to":`)
	w.ref(&g.To)
	w.raw(`,"why":`)
	w.str(g.Why)
	w.raw(`}`)
}

// jsonAppender appends JSON to b; err is the first error.
type jsonAppender struct {
	b   []byte
	err error
}

func (w *jsonAppender) raw(s string) { w.b = append(w.b, s...) }

// list appends l as an array (null when nil), item by item.
func list[T any](w *jsonAppender, l []T, item func(*T)) {
	if l == nil {
		w.raw("null")
		return
	}
	w.b = append(w.b, '[')
	for i := range l {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		item(&l[i])
	}
	w.b = append(w.b, ']')
}

func (w *jsonAppender) placed(p *placedMilestone) {
	m := p.Milestone
	if m == nil { // the embedded milestone's members are not written
		if p.Gap == nil {
			w.raw(`{}`)
			return
		}
		w.raw(`{"gap":`)
		w.span(p.Gap)
		w.raw(`}`)
		return
	}
	w.raw(`{"kind":`)
	w.str(string(m.Kind))
	if m.Container != "" {
		w.raw(`,"container":`)
		w.str(m.Container)
	}
	w.raw(`,"attempt":`)
	w.int(int64(m.Attempt))
	w.raw(`,"at":`)
	w.time(m.At)
	if !m.Earliest.IsZero() {
		w.raw(`,"earliest":`)
		w.time(m.Earliest)
	}
	if !m.Latest.IsZero() {
		w.raw(`,"latest":`)
		w.time(m.Latest)
	}
	w.raw(`,"source":`)
	w.str(string(m.Source))
	w.optStr(`,"reason":`, m.Reason)
	w.optStr(`,"message":`, m.Message)
	if m.ExitCode != nil {
		w.raw(`,"exitCode":`)
		w.int(int64(*m.ExitCode))
	}
	w.optStr(`,"signal":`, m.Signal)
	if m.Count != 0 {
		w.raw(`,"count":`)
		w.int(int64(m.Count))
	}
	w.raw(`,"evidence":`)
	list(w, m.Evidence, w.evidence)
	w.raw(`,"offset":`)
	w.span(&m.Offset)
	w.optStr(`,"why":`, m.Why)
	if p.Gap != nil { // the milestone's own Gap is hidden by this one
		w.raw(`,"gap":`)
		w.span(p.Gap)
	}
	w.raw(`}`)
}

func (w *jsonAppender) evidence(e *Evidence) {
	w.raw(`{"what":`)
	w.str(e.What)
	w.optTime(`,"api":`, e.API)
	w.optStr(`,"precision":`, e.Precision)
	w.optTime(`,"nameTime":`, e.NameTime)
	w.optTime(`,"received":`, e.Received)
	w.optTime(`,"at":`, e.At)
	w.optStr(`,"note":`, e.Note)
	w.raw(`}`)
}

func (w *jsonAppender) span(s *Span) { w.b = s.appendJSON(w.b) }

func (w *jsonAppender) container(c *containerJSON) {
	w.raw(`{"name":`)
	w.str(c.Name)
	w.raw(`,"kind":`)
	w.str(string(c.Kind))
	w.raw(`,"restartCount":`)
	w.int(int64(c.RestartCount))
	w.raw(`,"state":`)
	w.str(c.State)
	w.raw(`,"milestones":`)
	list(w, c.Milestones, w.placed)
	w.raw(`,"segments":`)
	list(w, c.Segments, func(s *Segment) {
		w.raw(`{"state":`)
		w.str(string(s.State))
		w.optStr(`,"reason":`, s.Reason)
		w.raw(`,"from":`)
		w.time(s.From)
		w.optTime(`,"to":`, s.To)
		w.raw(`}`)
	})
	if len(c.Logs) > 0 {
		w.raw(`,"logs":`)
		list(w, c.Logs, w.runLog)
	}
	w.raw(`}`)
}

func (w *jsonAppender) runLog(l *runLogJSON) {
	w.raw(`{"attempt":`)
	w.int(int64(l.Attempt))
	w.optTime(`,"first":`, l.First)
	w.raw(`,"last":`)
	w.time(l.Last)
	w.raw(`,"lines":`)
	w.int(int64(l.Lines))
	w.raw(`,"perSecond":`)
	list(w, l.PerSecond.Slice(), func(c *LogCount) {
		w.raw(`{"at":`)
		w.time(c.At)
		w.raw(`,"lines":`)
		w.int(int64(c.Lines))
		w.raw(`}`)
	})
	w.raw(`}`)
}

func (w *jsonAppender) gap(g *Gap) {
	w.raw(`{"name":`)
	w.str(g.Name)
	w.raw(`,"from":`)
	w.ref(&g.From)
	w.raw(`,"to":`)
	w.ref(&g.To)
	w.raw(`,"span":`)
	w.span(&g.Span)
	w.optStr(`,"why":`, g.Why)
	w.raw(`}`)
}

func (w *jsonAppender) ref(r *MilestoneRef) {
	w.raw(`{`)
	if r.Container != "" {
		w.raw(`"container":`)
		w.str(r.Container)
		w.raw(`,`)
	}
	w.raw(`"kind":`)
	w.str(string(r.Kind))
	w.raw(`,"attempt":`)
	w.int(int64(r.Attempt))
	w.raw(`}`)
}

func (w *jsonAppender) finding(f *Finding) {
	w.raw(`{"id":`)
	w.str(string(f.ID))
	w.raw(`,"severity":`)
	w.str(string(f.Severity))
	w.optStr(`,"pod":`, f.Pod)
	w.optStr(`,"container":`, f.Container)
	w.raw(`,"text":`)
	w.str(f.Text)
	w.raw(`}`)
}

func (w *jsonAppender) optStr(name, s string) {
	if s != "" {
		w.raw(name)
		w.str(s)
	}
}

func (w *jsonAppender) optTime(name string, t time.Time) {
	if !t.IsZero() {
		w.raw(name)
		w.time(t)
	}
}

func (w *jsonAppender) int(v int64) { w.b = strconv.AppendInt(w.b, v, 10) }

// time appends t as time.Time's MarshalJSON writes it (RFC 3339 with nanoseconds), which is
// asked itself for what it may refuse or write otherwise: a year outside 0-9999, a zone offset
// of a day or more, or one with seconds.
func (w *jsonAppender) time(t time.Time) {
	if y := t.Year(); y < 0 || y > 9999 || !plainOffset(t) {
		w.marshal(t)
		return
	}
	w.b = append(w.b, '"')
	w.b = t.AppendFormat(w.b, time.RFC3339Nano)
	w.b = append(w.b, '"')
}

func plainOffset(t time.Time) bool {
	_, off := t.Zone()
	return off%60 == 0 && off > -24*3600 && off < 24*3600
}

// str appends s quoted as encoding/json quotes it: as it is, unless it holds a character
// encoding/json escapes (a control character, a quote, a backslash, <, > or &, U+2028 or U+2029)
// or a byte that is not UTF-8, when encoding/json writes it.
func (w *jsonAppender) str(s string) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if escapedASCII[c] {
				w.marshal(s)
				return
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			w.marshal(s)
			return
		}
		i += size
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, s...)
	w.b = append(w.b, '"')
}

// escapedASCII are the ASCII characters encoding/json escapes.
var escapedASCII = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&'
	}
	return t
}()

// marshal appends v as encoding/json writes it.
func (w *jsonAppender) marshal(v any) {
	b, err := json.Marshal(v)
	if err != nil && w.err == nil {
		w.err = err
	}
	w.b = append(w.b, b...)
}

// AppendJSON appends the Event as encoding/json writes it, byte for byte (a Job's recording has
// tens of thousands, and replay -o json wrote each by reflection); TestEventEncodersAgree.
func (e Event) AppendJSON(b []byte) ([]byte, error) {
	w := jsonAppender{b: b}
	w.raw(`{"at":`)
	w.time(e.At)
	w.raw(`,"object":`)
	w.str(e.Object)
	w.optStr(`,"container":`, e.Container)
	w.raw(`,"type":`)
	w.str(e.Type)
	w.raw(`,"reason":`)
	w.str(e.Reason)
	w.raw(`,"message":`)
	w.str(e.Message)
	w.raw(`,"count":`)
	w.int(int64(e.Count))
	w.raw(`}`)
	return w.b, w.err
}

// AppendJSON appends the Finding as encoding/json writes it, byte for byte (a Job's document
// lists a warning of each of its pods); TestFindingEncodersAgree.
func (f Finding) AppendJSON(b []byte) ([]byte, error) {
	w := jsonAppender{b: b}
	w.finding(&f)
	return w.b, w.err
}
