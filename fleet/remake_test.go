package fleet

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// randomRow is a row of pod i in a small world of values, so that sort keys tie often.
func randomRow(rng *rand.Rand, i int) *Row {
	r := &Row{Namespace: fmt.Sprint("ns", rng.IntN(3)), Name: fmt.Sprint("p", rng.IntN(40)), UID: fmt.Sprint("u", i),
		Status: []string{"Running", "Init:0/1", "Completed", "Error"}[rng.IntN(4)], Shape: Shape(rng.IntN(3)),
		SidecarRestarts: rng.Int32N(3), Created: time.Unix(int64(rng.IntN(5)), 0)}
	for k := range r.Gaps {
		if rng.IntN(2) == 0 {
			r.Gaps[k] = Cell{Span: timeline.Span{Value: time.Duration(rng.IntN(4)) * time.Second}, Known: true}
		}
	}
	for range rng.IntN(3) {
		r.Findings = append(r.Findings, timeline.Finding{ID: []timeline.FindingID{timeline.FindingCrashLoop,
			timeline.FindingSlowStartup}[rng.IntN(2)], Severity: timeline.SeverityWarning})
	}
	return r
}

// TestRemakeIsMake: for every sort key, either way, with and without hiding and a filter, a
// table remade after some rows changed is the table made from the rows anew: the same rows in
// the same order and the same counts, frame after frame.
func TestRemakeIsMake(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range Key(Keys) {
		for _, v := range []View{{Sort: k}, {Sort: k, Desc: true, SidecarsOnly: true}, {Sort: k, Filter: "p1"}} {
			rows := make([]*Row, 300)
			for i := range rows {
				rows[i] = randomRow(rng, i)
			}
			table := Make(rows, v)
			for frame := range 20 {
				next, changed := append([]*Row(nil), rows...), []int{}
				for range rng.IntN(12) {
					i := rng.IntN(len(rows))
					if next[i] != rows[i] {
						continue // made again already: a place is changed once
					}
					next[i] = randomRow(rng, i)
					changed = append(changed, i)
				}
				table = Remake(table, rows, next, changed, v)
				want := Make(next, v)
				if diff := cmp.Diff(want.Counts, table.Counts); diff != "" || !slices.Equal(want.Rows, table.Rows) {
					t.Fatalf("view %+v, frame %d: Remake differs from Make: counts (-make +remake) %s; rows\n%v\nwant\n%v",
						v, frame, diff, names(table.Rows), names(want.Rows))
				}
				rows = next
			}
		}
	}
}

func names(rows []*Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Namespace+"/"+r.Name+"/"+r.UID)
	}
	return out
}
