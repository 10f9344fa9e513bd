package ui

import (
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/present"
)

// zoomSpans are the spans the time axis can be zoomed to; zero is "fit": the whole life of the
// pod so far.
var zoomSpans = []time.Duration{
	time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second,
	30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute,
	15 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour, 6 * time.Hour,
	12 * time.Hour, 24 * time.Hour,
}

// minSpan is the shortest stretch of time the axis shows when fitting a pod just created.
const minSpan = time.Second

// zoomIn returns the next shorter span than cur, where zero means fit (whose span is fit).
func zoomIn(cur, fit time.Duration) time.Duration {
	if cur == 0 {
		cur = fit
	}
	for i := len(zoomSpans) - 1; i >= 0; i-- {
		if zoomSpans[i] < cur {
			return zoomSpans[i]
		}
	}
	if cur == fit {
		return 0
	}
	return cur
}

// zoomOut returns the next longer span than cur, or zero (fit) once that shows everything.
func zoomOut(cur, fit time.Duration) time.Duration {
	if cur == 0 {
		return 0
	}
	for _, s := range zoomSpans {
		if s > cur {
			if s >= fit {
				return 0
			}
			return s
		}
	}
	return 0
}

// window is the stretch of time the lanes show, [start, end), mapped onto width columns.
type window struct {
	start, end time.Time
	width      int
	span       time.Duration // end - start
}

func newWindow(start, end time.Time, width int) window {
	return window{start: start, end: end, width: width, span: end.Sub(start)}
}

// axisWindow is the time the lanes show for the view state: the whole life so far when
// fitting, else the zoom span; its right edge is the live end when following, else frozenEnd.
// A zoomed window that would reach before the origin starts at the origin instead.
func axisWindow(origin, liveEnd time.Time, zoom time.Duration, follow bool, frozenEnd time.Time) (start, end time.Time) {
	end = liveEnd
	if !follow && !frozenEnd.IsZero() {
		end = frozenEnd
	}
	if zoom == 0 {
		if end.Sub(origin) < minSpan {
			end = origin.Add(minSpan)
		}
		return origin, end
	}
	start = end.Add(-zoom)
	if follow && start.Before(origin) {
		start, end = origin, origin.Add(zoom)
	}
	return start, end
}

// col is the column of time t; it is outside [0, width) when t is outside the window.
func (w *window) col(t time.Time) int { return w.colAfter(t.Sub(w.start)) }

// colAfter is col of the time d after the window's start.
func (w *window) colAfter(d time.Duration) int {
	if w.span <= 0 || w.width <= 0 {
		return 0
	}
	f := float64(d) / float64(w.span) * float64(w.width)
	switch { // never far outside: a time years away must not overflow
	case f < -1:
		return -2
	case f < 0:
		return int(f) - 1 // floor for negatives
	case f >= float64(w.width)+1:
		return w.width + 1
	}
	return int(f)
}

// cellStart is when column i begins.
func (w *window) cellStart(i int) time.Time {
	return w.start.Add(time.Duration(float64(w.span) * float64(i) / float64(w.width)))
}

// middle is the middle of the time column i covers.
func (w *window) middle(i int) time.Time {
	return w.start.Add(time.Duration(float64(w.span) * (float64(i) + 0.5) / float64(w.width)))
}

// cell is the stretch of time column i covers.
func (w *window) cell(i int) (from, to time.Time) {
	from = w.start.Add(time.Duration(float64(w.span) * float64(i) / float64(w.width)))
	to = w.start.Add(time.Duration(float64(w.span) * float64(i+1) / float64(w.width)))
	return from, to
}

// ticks returns the axis' tick times, as offsets from origin, spaced so their labels fit. Ticks
// are at least 4 columns apart, so there are never more than width/4+1 of them, whatever the
// window and the origin: the loop is bounded by that, not by time.
func (w *window) ticks(origin time.Time, g present.Glyphs) []time.Duration {
	if w.width <= 0 || w.span <= 0 {
		return nil
	}
	perCol := float64(w.span) / float64(w.width)
	for _, step := range textfmt.TickSteps {
		cols := float64(step) / perCol
		if cols < 4 {
			continue
		}
		var out []time.Duration
		fits := true
		d := ceilTo(w.start.Sub(origin), step)
		for n := 0; n <= w.width/4+1 && origin.Add(d).Before(w.end); n++ {
			if float64(cellWidth(g.Tick+textfmt.Tick(d))+2) > cols {
				fits = false
				break
			}
			out = append(out, d)
			if d+step < d {
				break // the next would overflow
			}
			d += step
		}
		if fits {
			return out
		}
	}
	return nil
}

// ceilTo rounds x up to a multiple of step (down, at the very top of the range).
func ceilTo(x, step time.Duration) time.Duration {
	q := x / step * step // toward zero
	if q < x && q+step > q {
		q += step
	}
	return q
}

// renderAxis draws the tick labels under the lanes: each label starts at its tick's column.
func renderAxis(f *frame, w *window, origin time.Time) string {
	st := &f.st
	line := []rune(strings.Repeat(" ", w.width))
	next := 0 // the first column free for a label
	for _, d := range w.ticks(origin, st.Glyphs) {
		c := w.col(origin.Add(d))
		label := []rune(st.Glyphs.Tick + textfmt.Tick(d))
		if c < next || c+len(label) > w.width {
			continue
		}
		copy(line[c:], label)
		next = c + len(label) + 1
	}
	return f.styled(sMuted, strings.TrimRight(string(line), " "))
}
