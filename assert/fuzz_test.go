package assert

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/source"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// finalTB plays an embedded recording to its final timeline.
func finalTB(t testing.TB, name string) timeline.Snapshot {
	t.Helper()
	f, err := recordings.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := source.Play(context.Background(), f, name)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Final
}

// kindNames are the language's names of the milestone kinds, container's and pod's.
func kindNames(kinds map[string]kindRef) map[timeline.MilestoneKind]string {
	out := map[timeline.MilestoneKind]string{}
	for name, k := range kinds {
		out[k.kind] = name
	}
	return out
}

// laneName is a container's name as an assertion writes it: quoted unless it is a plain name.
func laneName(name string) string {
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Sprintf("%q", name)
		}
	}
	return name
}

// recordingAssertions are assertions about what the real recordings hold: every milestone of
// every lane (by kind, and by run), every restart count, every named gap.
func recordingAssertions(t testing.TB, snaps map[string]timeline.Snapshot) []string {
	t.Helper()
	lanes, pods := kindNames(containerKinds), kindNames(podKinds)
	set := map[string]bool{}
	for _, s := range snaps {
		for _, p := range s.Pods.Items() {
			prev := "pod.created"
			for _, r := range p.Rows() {
				m := r.Milestone
				ref := ""
				if m.Container == "" {
					if name, ok := pods[m.Kind]; ok {
						ref = "pod." + name
					}
				} else if name, ok := lanes[m.Kind]; ok {
					ref = fmt.Sprintf("%s.%s[%d]", laneName(m.Container), name, m.Attempt)
				}
				if ref == "" {
					continue
				}
				set[fmt.Sprintf("%s - %s < 2s", ref, prev)] = true
				set[fmt.Sprintf("gap(%s, %s) >= 0s || !(%s > %s)", prev, ref, ref, prev)] = true
				prev = ref
			}
			for _, c := range p.Containers {
				set[fmt.Sprintf("%s.restarts == %d && count(findings, warning) < 3", laneName(c.Name), c.RestartCount)] = true
			}
			for _, g := range p.Gaps {
				set[fmt.Sprintf("gap(%q) <= 1m30s", g.Name)] = true
				set[fmt.Sprintf("gap(%q) > 500ms", strings.ReplaceAll(g.Name, "→", "->"))] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for a := range set {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// FuzzParse parses arbitrary assertions: the parser must not panic; a refusal is an *Error at a
// column of the assertion (or just after its end); an assertion it accepts is one it reads the
// same way again, and one that every real recording's timeline can be checked and evaluated
// against, giving true, false or uncertain.
func FuzzParse(f *testing.F) {
	snaps := map[string]timeline.Snapshot{}
	for _, name := range recordings.Names() {
		snaps[name] = finalTB(f, name)
	}
	for _, a := range recordingAssertions(f, snaps) {
		if _, err := Parse(a); err != nil { // the seeds must reach past the parser
			f.Fatalf("a seed from the recordings does not parse: %q: %v", a, err)
		}
		f.Add(a)
	}
	for _, a := range []string{
		"", "(", ")", "!", "app.start < ", `gap("`, `"x`, "app.exit[99999999999999999999] < app.exit",
		"app.exit - app.sigterm < 9223372036854775807s", "a.restarts < 1e400", "count(findings, warning) == -0",
		"pod.ready - pod.created < 1h30m15s500ms", `gap("a → b → c") < 1s`, "\x00 < \xff", "((((((((((a.start < b.start))))))))))",
	} {
		f.Add(a)
	}
	names := make([]string, 0, len(snaps))
	for name := range snaps {
		names = append(names, name)
	}
	sort.Strings(names)
	f.Fuzz(func(t *testing.T, src string) {
		a, err := Parse(src)
		if err != nil {
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("Parse(%q): error %T %v, want *Error", src, err, err)
			}
			if n := utf8.RuneCountInString(src); e.Col < 1 || e.Col > n+1 {
				t.Fatalf("Parse(%q): column %d of an assertion of %d characters", src, e.Col, n)
			}
			return
		}
		if a.String() != src {
			t.Fatalf("String() = %q, want %q", a.String(), src)
		}
		again, err := Parse(src)
		if err != nil || tree(again.root) != tree(a.root) {
			t.Fatalf("Parse(%q) twice: %v, %s then %s", src, err, tree(a.root), tree(again.root))
		}
		for _, name := range names {
			s := snaps[name]
			_ = a.Check(s)
			for _, p := range s.Pods.Items() {
				if r := a.Eval(p); r.Truth != True && r.Truth != False && r.Truth != Uncertain {
					t.Fatalf("%s: %q is %v", name, src, r.Truth)
				}
			}
			if o := a.EvalPods(s.Pods.Slice()); len(o.Pods) != s.Pods.Len() {
				t.Fatalf("%s: EvalPods gave %d results for %d pods", name, len(o.Pods), s.Pods.Len())
			}
		}
	})
}
