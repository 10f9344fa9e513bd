package export

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// WriteMarkdown writes a report to paste into a GitHub issue: for each pod its header, its lanes
// as text, the milestone table with offsets, gaps, bounds and why each came then, the named gaps
// with theirs, the findings and the Events; each job's lane, conditions and findings; then the
// environment (server and tool versions, nodes, container runtime).
//
// Text from the cluster goes into code spans (or the lanes' code block), where GitHub neither
// renders Markdown or HTML nor links @mentions and #references, after present.Safe has made controls
// and invisible characters visible; a pipe in a table cell is escaped.
func WriteMarkdown(w io.Writer, in Input) error {
	b := bufio.NewWriter(w)
	md := &mdWriter{w: b}
	title := "sidecar-top timeline"
	if in.About.Target != "" {
		title += " of " + code(in.About.Target)
		if in.About.Namespace != "" {
			title += " in " + code(in.About.Namespace)
		}
	}
	md.line("# " + title)
	for _, p := range in.Snapshot.Pods.Items() {
		md.pod(p)
	}
	end := snapshotSpan(in.Snapshot).end
	for _, j := range in.Snapshot.Jobs {
		md.job(j, in.Snapshot.JobFindings(j), end)
	}
	md.environment(in)
	return b.Flush()
}

type mdWriter struct{ w *bufio.Writer }

func (md *mdWriter) line(parts ...string) {
	md.w.WriteString(strings.Join(parts, ""))
	md.w.WriteByte('\n')
}

// table writes a GitHub table: the header, then the rows, every cell already Markdown but for
// its pipes, which table escapes. A header ending in ">" is right-aligned (the ">" dropped):
// offsets and lengths line up.
func (md *mdWriter) table(header []string, rows [][]string) {
	md.line("")
	names, seps := make([]string, len(header)), make([]string, len(header))
	for i, h := range header {
		names[i], seps[i] = h, "---"
		if n, ok := strings.CutSuffix(h, ">"); ok {
			names[i], seps[i] = n, "--:"
		}
	}
	md.line("| ", strings.Join(names, " | "), " |")
	md.line("|", strings.Join(seps, "|"), "|")
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = cell(c)
		}
		md.line("| ", strings.Join(cells, " | "), " |")
	}
}

func (md *mdWriter) pod(p *timeline.Pod) {
	md.line("")
	md.line("## Pod ", code(p.Name), " — ", code(p.Status))
	facts := [][]string{
		{"Namespace", code(p.Namespace)},
		{"UID", code(p.UID)},
	}
	if p.Node != "" {
		facts = append(facts, []string{"Node", code(p.Node)})
	}
	if p.Owner != nil {
		facts = append(facts, []string{"Owner", code(p.Owner.String())})
	}
	status := code(p.Status) + ", phase " + code(p.Phase)
	if p.Deleted {
		status += ", deleted"
	}
	facts = append(facts, []string{"Status", status})
	if !p.Created.IsZero() {
		facts = append(facts, []string{"Created", p.Created.UTC().Format(time.RFC3339)})
	}
	if seq := statusSequence(p); seq != "" {
		facts = append(facts, []string{"STATUS over time", seq})
	}
	md.table([]string{"", ""}, facts)

	md.line("")
	md.line("### Lanes")
	md.codeBlock(textLanes(p))
	md.line("")
	md.line("▸ start · ◆ started · ✓ ready · ↯ SIGTERM · ■ exit · ✗ failed · ↻ restart · ? inferred · ",
		"░ waiting · ▒ running · ▓ started · █ ready · ≈ terminating · ─ exited")

	md.milestones(p)
	if len(p.Gaps) > 0 {
		md.line("")
		md.line("### Named gaps")
		var rows [][]string
		for _, g := range p.Gaps {
			rows = append(rows, []string{escapeText(safe(g.Name)), textfmt.Gap(g.Span), why(g.Why)})
		}
		md.table([]string{"Gap", "Length>", "Why"}, rows)
	}
	md.findings(p.Findings(), p.Name)
	md.events(p.Events.Slice(), podSpan(p).origin)
}

// milestoneName is a milestone's name in a table: a Job condition's is "job " and the
// condition's type, which is the cluster's text (any client that may write the Job's status can
// add a condition), so it is made safe and its Markdown escaped.
func milestoneName(m *timeline.Milestone) string { return escapeText(safe(m.KindName())) }

// milestones writes the pod's milestone table: every milestone in time order with its offset
// from the pod's creation, its bound, and the gap from the one before.
func (md *mdWriter) milestones(p *timeline.Pod) {
	md.line("")
	md.line("### Milestones")
	var rows [][]string
	for _, r := range p.Rows() {
		m := r.Milestone
		lane := "pod"
		if r.Lane != "" {
			lane = code(r.Lane)
		}
		gap := ""
		if r.Gap != nil {
			gap = "Δ" + textfmt.Span(*r.Gap)
		}
		rows = append(rows, []string{textfmt.Signed(m.Offset.Value), textfmt.Plus(m.Offset.Plus()), gap, lane,
			milestoneName(m), string(m.Source), codeOrEmpty(m.Detail()), why(m.Why)})
	}
	md.table([]string{"Offset>", "±>", "Gap>", "Container", "Milestone", "Source", "Detail", "Why"}, rows)
}

// why is a milestone's or gap's why in a table cell: the tool's sentence, on one line.
func why(s string) string { return prose(strings.Join(strings.Fields(s), " ")) }

// codeBlock writes lines as a fenced block of text, where no line can close the fence.
func (md *mdWriter) codeBlock(lines []string) {
	md.line("")
	md.line("```text")
	for _, l := range lines {
		md.line(strings.ReplaceAll(l, "```", "`\u200b``"))
	}
	md.line("```")
}

func (md *mdWriter) findings(fs []timeline.Finding, within string) {
	if len(fs) == 0 {
		return
	}
	md.line("")
	md.line("### Findings")
	md.line("")
	for _, f := range fs {
		sev := string(f.Severity)
		if f.Severity == timeline.SeverityWarning {
			sev = "**warning**"
		}
		var where string
		if f.Pod != "" && f.Pod != within {
			where = "pod " + code(f.Pod) + ": "
		}
		if f.Container != "" && !strings.Contains(f.Text, f.Container) {
			where += code(f.Container) + ": "
		}
		md.line("- ", sev, ": ", where, prose(strings.Join(strings.Fields(f.Text), " ")))
	}
}

// events writes a pod's or job's Event occurrences with their offsets from origin.
func (md *mdWriter) events(evs []timeline.Event, origin time.Time) {
	if len(evs) == 0 {
		return
	}
	md.line("")
	md.line("### Events")
	md.line("")
	md.line(fmt.Sprintf("<details><summary>%d Event occurrences</summary>", len(evs)))
	var rows [][]string
	for _, e := range evs {
		what := e.Object
		if e.Container != "" {
			what = e.Container
		}
		msg := e.Message
		if e.Count > 1 {
			msg += fmt.Sprintf(" (×%d)", e.Count)
		}
		rows = append(rows, []string{textfmt.Signed(e.At.Sub(origin)), code(what), code(e.Type),
			code(e.Reason), codeOrEmpty(strings.Join(strings.Fields(msg), " "))})
	}
	md.table([]string{"Offset>", "Object", "Type", "Reason", "Message"}, rows)
	md.line("")
	md.line("</details>")
}

// job writes job j's section: its header, its lane to end (the timeline's), its milestones,
// findings fs and Events.
func (md *mdWriter) job(j *timeline.Job, fs []timeline.Finding, end time.Time) {
	md.line("")
	md.line("## Job ", code(j.Name), " — ", code(j.Status))
	status := fmt.Sprintf("%s (active %d, succeeded %d, failed %d)", code(j.Status), j.Active, j.Succeeded, j.Failed)
	if j.Deleted {
		status += ", deleted"
	}
	md.table([]string{"", ""}, [][]string{{"Namespace", code(j.Namespace)}, {"UID", code(j.UID)}, {"Status", status}})
	var rows [][]string
	for i := range j.Milestones {
		m := &j.Milestones[i]
		gap := ""
		if m.Gap != nil {
			gap = "Δ" + textfmt.Span(*m.Gap)
		}
		rows = append(rows, []string{textfmt.Signed(m.Offset.Value), textfmt.Plus(m.Offset.Plus()), gap, milestoneName(m),
			string(m.Source), codeOrEmpty(m.Detail()), why(m.Why)})
	}
	if len(rows) > 0 {
		md.line("")
		md.line("### Lane")
		md.codeBlock(textJobLane(j, end))
		md.line("")
		md.line("### Milestones")
		md.table([]string{"Offset>", "±>", "Gap>", "Milestone", "Source", "Detail", "Why"}, rows)
	}
	md.findings(fs, "")
	md.events(j.Events.Slice(), j.Created)
}

// environment writes what the timeline was taken from and with.
func (md *mdWriter) environment(in Input) {
	md.line("")
	md.line("## Environment")
	var rows [][]string
	add := func(k, v string) {
		if v != "" {
			rows = append(rows, []string{k, v})
		}
	}
	add("Kubernetes server", codeOrEmpty(in.About.ServerVersion))
	var nodes, runtimes []string
	for _, p := range in.Snapshot.Pods.Items() {
		if p.Node != "" && !contains(nodes, code(p.Node)) {
			nodes = append(nodes, code(p.Node))
		}
		if r := in.About.Runtimes[p.UID]; r != "" && !contains(runtimes, code(r)) {
			runtimes = append(runtimes, code(r))
		}
	}
	add("Nodes", strings.Join(nodes, ", "))
	add("Container runtime", strings.Join(runtimes, ", "))
	add("Recording", codeOrEmpty(in.About.Name))
	if !in.About.Started.IsZero() {
		add("Recording started", in.About.Started.UTC().Format(time.RFC3339))
	}
	add("Recorded by", codeOrEmpty(in.About.RecordedBy))
	add("Exported by", codeOrEmpty(in.About.ExportedBy))
	md.table([]string{"", ""}, rows)
	if len(in.Snapshot.Notes) > 0 {
		md.line("")
		md.line("Notes on the data:")
		md.line("")
		for _, n := range in.Snapshot.Notes {
			md.line("- ", prose(n))
		}
	}
}

// statusSequence is the pod's STATUS over time, each change once, with its offset.
func statusSequence(p *timeline.Pod) string {
	s := podSpan(p)
	var out []string
	for _, st := range statusSegments(p, s) {
		out = append(out, code(st.Status)+" "+textfmt.Signed(st.From.Sub(s.origin)))
	}
	return strings.Join(out, " → ")
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
