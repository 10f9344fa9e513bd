package timeline

import (
	"fmt"
	"strings"
)

// Failed reports whether the milestone ends something badly: a non-zero exit, a Failed phase or
// a Failed Job condition.
func (m *Milestone) Failed() bool {
	switch m.Kind {
	case MExit:
		return m.ExitCode != nil && *m.ExitCode != 0
	case MPhase, MCondition:
		return m.Reason == "Failed"
	}
	return false
}

// Detail describes the milestone beyond its kind, as the view's table and every export show it:
// its reason (but a plain exit's Error or Completed), exit code and signal, restart number,
// Event count; the message only when there is nothing else. The text is as the cluster wrote it
// (runs of white space made one space): whoever shows it escapes it.
func (m *Milestone) Detail() string {
	var parts []string
	if r := m.reasonText(); r != "" {
		parts = append(parts, r)
	}
	if e := m.exitText(); e != "" {
		parts = append(parts, e)
	}
	if m.Kind == MRestart && m.Attempt > 0 {
		parts = append(parts, fmt.Sprintf("#%d", m.Attempt))
	}
	if m.Count > 1 {
		parts = append(parts, fmt.Sprintf("×%d", m.Count))
	}
	if len(parts) == 0 && m.Message != "" {
		parts = append(parts, m.Message)
	}
	return strings.Join(strings.Fields(strings.Join(parts, ", ")), " ")
}

// reasonText is the reason Detail shows, or "": none for a condition (KindName has its type) or
// a plain exit's Error or Completed, and the message for a pod held by its readiness gates.
func (m *Milestone) reasonText() string {
	generic := m.Kind == MExit && (m.Reason == "Error" || m.Reason == "Completed")
	switch {
	case m.Kind == MNotReady && m.Reason == reasonGatesNotReady && m.Message != "":
		return m.Message // which gates: more than the reason says
	case m.Reason != "" && m.Kind != MCondition && !generic:
		return m.Reason
	}
	return ""
}

// exitText is the exit code and the signal Detail shows, or "" with neither.
func (m *Milestone) exitText() string {
	switch {
	case m.ExitCode != nil && m.Signal != "":
		return fmt.Sprintf("exit %d (%s)", *m.ExitCode, m.Signal)
	case m.ExitCode != nil:
		return fmt.Sprintf("exit %d", *m.ExitCode)
	}
	return m.Signal
}

// KindName names the milestone as the view's table and every export do: its kind (the pod's
// ContainersReady as ctrs-ready, a Job condition as "job " and its type), with a "?" after an
// inferred one. The condition's type is as the cluster wrote it: whoever shows it escapes it.
func (m *Milestone) KindName() string {
	k := string(m.Kind)
	if info, ok := InfoOf(m.Kind); ok {
		k = info.Display
	}
	if m.Kind == MCondition {
		k += " " + m.Reason
	}
	if m.Source == SourceInferred {
		k += "?"
	}
	return k
}
