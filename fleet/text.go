package fleet

import (
	"strconv"
	"time"

	"k8s.io/apimachinery/pkg/util/duration"

	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/present"
)

// Titles head the table's columns, in Key order.
var Titles = func() [Keys]string {
	t := [Keys]string{"NAMESPACE", "POD", "OWNER", "STATUS", "SC-RESTARTS", "APP-RESTARTS", "AGE"}
	for i, c := range Columns {
		t[int(KeyGap)+i] = c.Title
	}
	t[KeyFinding] = "FINDING"
	return t
}()

// Cells are the row's text in each column, in Key order, as the table and the plain output
// show them: names and STATUS made safe to print (present.Safe), the age as kubectl prints it,
// a gap with its ± (or its bounds), "-" for none, the worst finding's rule and how many more.
func (r *Row) Cells(now time.Time) [Keys]string {
	c := [Keys]string{
		present.Safe(r.Namespace), present.Safe(r.Name), present.Safe(r.Owner.String()), present.Safe(r.Status),
		strconv.Itoa(int(r.SidecarRestarts)), strconv.Itoa(int(r.AppRestarts)), duration.HumanDuration(r.Age(now)),
	}
	if c[KeyOwner] == "" {
		c[KeyOwner] = "-"
	}
	for i, g := range r.Gaps {
		c[int(KeyGap)+i] = "-"
		if g.Known {
			c[int(KeyGap)+i] = textfmt.Gap(g.Span)
		}
	}
	c[KeyFinding] = "-"
	if w := r.Worst(); w != nil {
		c[KeyFinding] = present.Safe(string(w.ID))
		if n := len(r.Findings) - 1; n > 0 {
			c[KeyFinding] += " +" + strconv.Itoa(n)
		}
	}
	return c
}
