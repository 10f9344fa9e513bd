package ui

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// In a fleet view the summary (S) is grouped by owner: it opens on the workload of the row under
// the table's cursor (its pods in that namespace, or the namespace's pods of their own), and w
// and W step through the scope's workloads, every pod of the scope being the first choice.

// summaryNow is the summary S shows, with the workload's name ("" for every pod of the view):
// of the workload chosen in a fleet view, else of every pod (the memo's).
func summaryNow(fleet *FleetTable, owner string, memo *navMemo, snap timeline.Snapshot) (timeline.Summary, string) {
	if fleet != nil && owner != "" {
		for _, g := range fleet.rows.Groups() {
			if g.Key() == owner {
				return timeline.SummarizePods(g.Pods), g.String()
			}
		}
	}
	return memo.sums.summary(snap), ""
}

// summaryOwners are the choices w and W step through in a fleet view: every pod (""), then each
// workload; nil outside a fleet view.
func summaryOwners(fleet *FleetTable) []string {
	if fleet == nil {
		return nil
	}
	owners := []string{""}
	for _, g := range fleet.rows.Groups() {
		owners = append(owners, g.Key())
	}
	return owners
}

// stepOwner moves the summary to the next (d = 1) or previous (d = -1) workload of owners,
// around; the gap and the cursor start again.
func (st summaryScreen) stepOwner(owners []string, d int) summaryScreen {
	if len(owners) == 0 {
		return st
	}
	i := max(slices.Index(owners, st.owner), 0)
	st.owner, st.gap, st.cursor = owners[(i+d+len(owners))%len(owners)], "", ""
	return st
}

// summaryOwnerKeys are w and W, the workload keys of a fleet view's summary.
func summaryOwnerKeys() (next, prev key.Binding) {
	return key.NewBinding(key.WithKeys("w"), key.WithHelp("w/W", "workload")),
		key.NewBinding(key.WithKeys("W"), key.WithHelp("W", "previous workload"))
}
