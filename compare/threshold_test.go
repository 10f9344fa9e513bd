package compare

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

func TestParseThreshold(t *testing.T) {
	tests := []struct {
		src  string
		want Threshold
	}{
		{"sidecar started → app start > +20%", Threshold{Gap: "sidecar started → app start", Op: ">", Relative: true, Frac: 0.2}},
		// The arrow's > is not the operator; the last > or < that is not an arrow's head is.
		{"app SIGTERM -> app exit >= +500ms", Threshold{Gap: "app SIGTERM -> app exit", Op: ">=", Abs: 500 * time.Millisecond}},
		{"a -> b<-1.5s", Threshold{Gap: "a -> b", Op: "<", Abs: -1500 * time.Millisecond}},
		{" a → b <= 12.5 % ", Threshold{Gap: "a → b", Op: "<=", Relative: true, Frac: 0.125}},
		{"a → b > 1m30s", Threshold{Gap: "a → b", Op: ">", Abs: 90 * time.Second}},
		{"a → b > + 500 ms", Threshold{Gap: "a → b", Op: ">", Abs: 500 * time.Millisecond}},
		{"a → b < -20%", Threshold{Gap: "a → b", Op: "<", Relative: true, Frac: -0.2}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got, err := ParseThreshold(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Src = tt.src
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("-got +want:\n%s", diff)
			}
		})
	}
}

func TestParseThresholdBad(t *testing.T) {
	tests := []struct {
		src string
		col int
	}{
		{"", 1},
		{"a → b", 6},
		{"a -> b", 7},           // the arrow is not an operator
		{"a → b == 1s", 12},     // no == : the operators are >, >=, <, <=
		{"a → b > ", 9},         // nothing after it: the column after the end
		{"a → b > 20", 9},       // a number needs % or a unit
		{"a → b > +-20%", 9},    // one sign
		{"a → b > NaN%", 9},     // not a number
		{"a → b > 3sec", 9},     // not a duration
		{"   > 1s", 1},          // no name
		{"app start > 1s", 1},   // a name without an arrow
		{"  app start > 1s", 3}, // the column of the name, after its spaces
		{"ß → ü >   -x%", 11},   // columns count characters, not bytes
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, err := ParseThreshold(tt.src)
			var te *ThresholdError
			if !errors.As(err, &te) || te.Col != tt.col {
				t.Errorf("got %v, want an error at column %d", err, tt.col)
			}
		})
	}
}

// ms is a span in milliseconds; lo or hi of none is no bound on that side.
func ms(v, lo, hi int) timeline.Span {
	s := timeline.Span{Value: time.Duration(v) * time.Millisecond, Min: time.Duration(lo) * time.Millisecond, Max: time.Duration(hi) * time.Millisecond}
	if lo == none {
		s.Min = timeline.NoMin
	}
	if hi == none {
		s.Max = timeline.NoMax
	}
	return s
}

const none = -1 << 31

// TestJudge: a threshold fails only when every reading of both sides' bounds is beyond it.
func TestJudge(t *testing.T) {
	tests := []struct {
		src  string
		a, b timeline.Span
		want string
	}{
		// B within [1.3, 1.4] s against A within [0.9, 1.0] s: at least +30%, at most +55%.
		{"x → y > +20%", ms(1000, 900, 1000), ms(1300, 1300, 1400), Fails},
		{"x → y > +30%", ms(1000, 900, 1000), ms(1300, 1300, 1400), Undecided},
		{"x → y >= +30%", ms(1000, 900, 1000), ms(1300, 1300, 1400), Fails},
		{"x → y > +60%", ms(1000, 900, 1000), ms(1300, 1300, 1400), Passes},
		{"x → y > +55.6%", ms(1000, 900, 1000), ms(1300, 1300, 1400), Passes},
		// Absolute: the change lies in [+0.3, +0.5] s.
		{"x → y > +299ms", ms(1000, 900, 1000), ms(1300, 1300, 1400), Fails},
		{"x → y > +300ms", ms(1000, 900, 1000), ms(1300, 1300, 1400), Undecided},
		{"x → y > +500ms", ms(1000, 900, 1000), ms(1300, 1300, 1400), Passes},
		{"x → y < +301ms", ms(1000, 900, 1000), ms(1300, 1300, 1400), Undecided},
		{"x → y < +501ms", ms(1000, 900, 1000), ms(1300, 1300, 1400), Fails},
		{"x → y <= +500ms", ms(1000, 900, 1000), ms(1300, 1300, 1400), Fails},
		{"x → y < +300ms", ms(1000, 900, 1000), ms(1300, 1300, 1400), Passes},
		// Shorter: B at most 40% of A for certain, so beyond -50%, not beyond -60%.
		{"x → y < -50%", ms(1000, 1000, 1000), ms(300, 200, 400), Fails},
		{"x → y < -60%", ms(1000, 1000, 1000), ms(300, 200, 400), Undecided},
		{"x → y < -80%", ms(1000, 1000, 1000), ms(300, 200, 400), Passes},
		// Below -100% the scale turns over: B > -A·0.5 for every A in [1, 2] s and B ≥ 0.
		{"x → y > -150%", ms(1500, 1000, 2000), ms(0, 0, 100), Fails},
		{"x → y > -100%", ms(1500, 1000, 2000), ms(0, 0, 100), Undecided},
		// A side without a bound decides nothing on that side.
		{"x → y > +100ms", ms(1000, 900, 1000), ms(1300, 1300, none), Fails},
		{"x → y < +1h", ms(1000, 900, 1000), ms(1300, 1300, none), Undecided},
		{"x → y > +100ms", ms(1000, none, 1000), ms(1300, 1300, 1400), Fails},
		{"x → y < +1h", ms(1000, none, 1000), ms(1300, 1300, 1400), Undecided},
		{"x → y > +0%", ms(1000, 900, none), ms(1300, 1300, 1400), Undecided},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			th, err := ParseThreshold(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := th.judge(tt.a, tt.b); got != tt.want {
				t.Errorf("A %+v, B %+v: %s, want %s", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

// TestApply: a threshold applies to each pair's row of its gap, by the name as diff prints it;
// a row on one side only keeps its verdict; a gap neither side has is an error naming it.
func TestApply(t *testing.T) {
	const g = "pod deletion → last exit (proxy)"
	a := snap(gapPod("web-1", g, span(1000, 1000, 1000)), gapPod("web-2", g, span(1000, 1000, 1000)))
	b := snap(gapPod("web-1", g, span(2000, 2000, 2000)), gapPod("web-2"))
	d, err := Timelines("A", "B", a, b, ByName)
	if err != nil {
		t.Fatal(err)
	}
	th, err := ParseThreshold("Pod Deletion -> Last Exit > +50%")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Apply([]Threshold{th}); err != nil {
		t.Fatal(err)
	}
	pct := 100.0
	want := []ThresholdResult{
		{Threshold: th.Src, Gap: g, PodA: "web-1", PodB: "web-1", Change: spanPtr(1000, 1000, 1000), Percent: &pct, Verdict: Fails},
		{Threshold: th.Src, Gap: g, PodA: "web-2", PodB: "web-2", Verdict: OnlyA},
	}
	if diff := cmp.Diff(d.Thresholds, want); diff != "" {
		t.Errorf("-got +want:\n%s", diff)
	}
	if got := d.Failed(); len(got) != 1 || got[0].PodA != "web-1" {
		t.Errorf("failed: %+v", got)
	}
	unknown, _ := ParseThreshold("proxy start → proxy started > 1s")
	err = d.Apply([]Threshold{unknown})
	const wantErr = `--fail-on "proxy start → proxy started > 1s": unknown gap "proxy start → proxy started": neither recording has it; they have "pod deletion → last exit (proxy)"`
	if err == nil || err.Error() != wantErr {
		t.Errorf("got %v\nwant %s", err, wantErr)
	}
}

// TestDiffers: what --exit-code counts as a difference.
func TestDiffers(t *testing.T) {
	row := func(shift string) []GapRow { return []GapRow{{Name: "x → y", Shift: shift}} }
	for _, tt := range []struct {
		name string
		d    Diff
		want bool
	}{
		{"nothing", Diff{}, false},
		{"within bounds", Diff{Pairs: []PodPair{{Gaps: row(Within)}}, Gaps: row(Within)}, false},
		{"longer", Diff{Pairs: []PodPair{{Gaps: row(Within)}, {Gaps: row(Longer)}}}, true},
		{"shorter over all pods", Diff{Gaps: row(Shorter)}, true},
		{"only in B", Diff{Gaps: row(OnlyB)}, true},
		{"a pod only in A", Diff{OnlyA: []string{"p"}}, true},
		{"ended on one side", Diff{Ends: []EndChange{{Object: "job"}}}, true},
	} {
		if got := tt.d.Differs(); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestApplyOverAllPods: compared as distributions, a threshold judges the medians, once.
func TestApplyOverAllPods(t *testing.T) {
	const g = "app SIGTERM → app exit"
	a := snap(gapPod("a-1", g, span(1000, 900, 1100)), gapPod("a-2", g, span(1200, 1100, 1300)), gapPod("a-3", g, span(5000, 5000, 5000)))
	b := snap(gapPod("b-1", g, span(3000, 2900, 3100)), gapPod("b-2", g, span(3200, 3100, 3300)))
	d, err := Timelines("A", "B", a, b, ByAuto)
	if err != nil {
		t.Fatal(err)
	}
	th, _ := ParseThreshold(g + " > +1s")
	if err := d.Apply([]Threshold{th}); err != nil {
		t.Fatal(err)
	}
	// Medians 1.2 s [1.1, 1.3] and 3.0 s [2.9, 3.1]: +1.8 s [+1.6, +2.0], beyond +1 s.
	pct := 150.0
	want := []ThresholdResult{{Threshold: th.Src, Gap: g, Change: spanPtr(1800, 1600, 2000), Percent: &pct, Verdict: Fails}}
	if diff := cmp.Diff(d.Thresholds, want); diff != "" {
		t.Errorf("by %s: -got +want:\n%s", d.By, diff)
	}
}
