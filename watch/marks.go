package watch

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// MarkRule is a milestone the app defines (timeline.Mark) and the pattern a line of its
// container must match to be it.
type MarkRule struct {
	timeline.Mark
	Pattern *regexp.Regexp
}

// Marks are the rules a log line is matched against, in the order given: a line is the first
// mark it matches. The zero value matches nothing.
type Marks struct{ rules []MarkRule }

// NewMarks keeps the rules, in order.
func NewMarks(rules ...MarkRule) Marks { return Marks{rules: append([]MarkRule(nil), rules...)} }

// Rules are the rules in order.
func (m Marks) Rules() []MarkRule { return m.rules }

// Len is how many rules there are.
func (m Marks) Len() int { return len(m.rules) }

// Match is the name of the first mark of container c that line matches, or "".
func (m Marks) Match(c string, line []byte) string {
	for i := range m.rules {
		r := &m.rules[i]
		if (r.Container == "*" || r.Container == c) && r.Pattern.Match(line) {
			return r.Name
		}
	}
	return ""
}

// For says whether any mark applies to container c: its lines need matching.
func (m Marks) For(c string) bool {
	for i := range m.rules {
		if r := &m.rules[i]; r.Container == "*" || r.Container == c {
			return true
		}
	}
	return false
}

// maxMarkName bounds a mark's name: it is a milestone's name on the lane and in the gaps.
const maxMarkName = 40

// ParseMark reads one --mark: CONTAINER:NAME=REGEX. CONTAINER is a container's name or "*"
// for any; NAME is a milestone's name (letters, digits, '-', '_', '.'); REGEX is Go's regular
// expression syntax (RE2), matched against each line without its stamp. The pattern may itself
// hold ':' and '='.
func ParseMark(s string) (MarkRule, error) {
	colon := strings.IndexByte(s, ':')
	if colon < 0 {
		return MarkRule{}, fmt.Errorf("mark %.60q: want CONTAINER:NAME=REGEX (no ':' after the container)", s)
	}
	rest := s[colon+1:]
	eq := strings.IndexByte(rest, '=')
	if eq < 0 {
		return MarkRule{}, fmt.Errorf("mark %.60q: want CONTAINER:NAME=REGEX (no '=' after the name)", s)
	}
	r, err := newMarkRule(s[:colon], rest[:eq], rest[eq+1:])
	if err != nil {
		return MarkRule{}, fmt.Errorf("mark %.60q: %w", s, err)
	}
	return r, nil
}

// newMarkRule checks a mark's three parts.
func newMarkRule(container, name, pattern string) (MarkRule, error) {
	switch {
	case container == "":
		return MarkRule{}, errors.New("the container is empty (use * for any container)")
	case container != "*" && len(validation.IsDNS1123Label(container)) > 0:
		return MarkRule{}, fmt.Errorf("%.60q is not a container name: %s", container, validation.IsDNS1123Label(container)[0])
	}
	if err := checkMarkName(name); err != nil {
		return MarkRule{}, err
	}
	if pattern == "" {
		return MarkRule{}, errors.New("the pattern is empty: it would match every line")
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return MarkRule{}, fmt.Errorf("bad pattern: %w", err)
	}
	return MarkRule{Mark: timeline.Mark{Container: container, Name: name}, Pattern: re}, nil
}

// checkMarkName refuses a name that is empty, long, not printable plainly, or a built-in
// milestone that a line cannot refine.
func checkMarkName(name string) error {
	switch {
	case name == "":
		return errors.New("the name is empty")
	case len(name) > maxMarkName:
		return fmt.Errorf("the name is longer than %d bytes", maxMarkName)
	}
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return fmt.Errorf("name %.60q: only letters, digits, '-', '_' and '.'", name)
		}
	}
	// A second "started" or "prestop" from a log line would read as the kubelet's.
	if k, ok := timeline.InfoOf(timeline.MilestoneKind(name)); ok && !k.Refinable {
		return fmt.Errorf("%q is a built-in milestone a log line cannot refine (those it can: %s); choose another name", name, refinableNames)
	}
	return nil
}

// refinableNames lists the built-in milestones a marked line refines (timeline.KindInfo.Refinable).
var refinableNames = func() string {
	var names []string
	for _, k := range timeline.Kinds() {
		if k.Refinable {
			names = append(names, string(k.Kind))
		}
	}
	return strings.Join(names, ", ")
}()

// markFileEntry is one mark in a marks file.
type markFileEntry struct {
	Container string `json:"container"`
	Name      string `json:"name"`
	Pattern   string `json:"pattern"`
}

// ParseMarksFile reads a marks file: YAML (or JSON), a list of {container, name, pattern}.
// Unknown fields are refused, so that a typo does not silently drop a mark. name is used in
// errors.
func ParseMarksFile(data []byte, name string) ([]MarkRule, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: no marks in the file", name)
	}
	var entries []markFileEntry
	if err := yaml.UnmarshalStrict(data, &entries); err != nil {
		return nil, fmt.Errorf("%s: want a list of {container, name, pattern}: %w", name, err)
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("%s: no marks in the file", name)
	}
	out := make([]MarkRule, 0, len(entries))
	for i, e := range entries {
		r, err := newMarkRule(e.Container, e.Name, e.Pattern)
		if err != nil {
			return nil, fmt.Errorf("%s: mark %d (%.40q): %w", name, i+1, e.Name, err)
		}
		out = append(out, r)
	}
	return out, nil
}
