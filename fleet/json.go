package fleet

import (
	"encoding/json"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Document is a table as `-o json` prints it for a scope: the counts and every row.
type Document struct {
	Kind   string    `json:"kind"` // "SidecarTopFleet"
	Scope  string    `json:"scope"`
	At     time.Time `json:"at"`
	Counts Counts    `json:"counts"`
	Rows   []RowJSON `json:"pods"`
}

// RowJSON is a row in JSON: names as the cluster wrote them (JSON escapes them), the gaps by
// column ID with their bounds, every finding.
type RowJSON struct {
	Namespace       string                   `json:"namespace"`
	Name            string                   `json:"name"`
	UID             string                   `json:"uid"`
	Owner           *Owner                   `json:"owner,omitempty"`
	Status          string                   `json:"status"`
	Sidecar         string                   `json:"sidecar"` // native, classic or none
	SidecarRestarts int32                    `json:"sidecarRestarts"`
	AppRestarts     int32                    `json:"appRestarts"`
	Created         time.Time                `json:"created"`
	Finished        bool                     `json:"finished,omitempty"`
	Gaps            map[string]timeline.Span `json:"gaps,omitempty"`
	Findings        []timeline.Finding       `json:"findings,omitempty"`
}

// MarshalJSON writes the owner as kind and name.
func (o Owner) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Kind string `json:"kind"`
		Name string `json:"name"`
	}{o.Kind, o.Name})
}

// JSON is the row as Document lists it.
func (r *Row) JSON() RowJSON {
	j := RowJSON{Namespace: r.Namespace, Name: r.Name, UID: r.UID, Status: r.Status, Sidecar: r.Shape.String(),
		SidecarRestarts: r.SidecarRestarts, AppRestarts: r.AppRestarts, Created: r.Created, Finished: r.Finished,
		Findings: r.Findings}
	if r.Owner.Kind != "" {
		o := r.Owner
		j.Owner = &o
	}
	for i, g := range r.Gaps {
		if g.Known {
			if j.Gaps == nil {
				j.Gaps = map[string]timeline.Span{}
			}
			j.Gaps[Columns[i].ID] = g.Span
		}
	}
	return j
}

// DocumentOf is the document of table t of scope at time at.
func DocumentOf(t Table, scope string, at time.Time) Document {
	d := Document{Kind: "SidecarTopFleet", Scope: scope, At: at, Counts: t.Counts, Rows: make([]RowJSON, 0, len(t.Rows))}
	for _, r := range t.Rows {
		d.Rows = append(d.Rows, r.JSON())
	}
	return d
}
