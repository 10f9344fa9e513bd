package ui

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
)

// readmePath is the README whose keys section keysMarkdown writes.
const readmePath = "../README.md"

// keyFields are the bindings of k by field name: every field of KeyMap is a binding.
func keyFields(t *testing.T, k KeyMap) map[string]key.Binding {
	t.Helper()
	out := map[string]key.Binding{}
	v := reflect.ValueOf(k)
	for i := range v.NumField() {
		b, ok := v.Field(i).Interface().(key.Binding)
		if !ok {
			t.Fatalf("KeyMap.%s is a %s, not a key.Binding", v.Type().Field(i).Name, v.Field(i).Type())
		}
		out[v.Type().Field(i).Name] = b
	}
	return out
}

func sameBinding(a, b key.Binding) bool {
	return a.Help() == b.Help() && cmp.Equal(a.Keys(), b.Keys())
}

// TestKeysDocumented: every binding of the key map is in exactly one group of the `?` screen,
// has its help, and is drawn there in both modes (the replay's only in replay) at any width,
// scrolling as far as the help goes.
func TestKeysDocumented(t *testing.T) {
	k := DefaultKeyMap()
	for name, b := range keyFields(t, k) {
		n := 0
		for _, g := range k.keyGroups() {
			for _, gb := range g.keys {
				if sameBinding(gb, b) {
					n++
				}
			}
		}
		if n != 1 || b.Help().Key == "" || b.Help().Desc == "" {
			t.Errorf("KeyMap.%s (%q) is in %d groups of keyGroups with help %+v: want it in one, with its help",
				name, b.Keys(), n, b.Help())
		}
	}
	for _, mode := range []Mode{Live, Replay} {
		for _, w := range []int{40, 80, 120} {
			m := NewModel(Config{Mode: mode, Control: &fakeControl{}, Styles: plainStyles()})
			m = resize(m, w, 24)
			f := m.frameView()
			help := ansi.Strip(strings.Join(helpLines(&f), "\n"))
			for name, b := range keyFields(t, m.keys) {
				re := regexp.MustCompile(regexp.QuoteMeta(b.Help().Key) + ` +` + regexp.QuoteMeta(b.Help().Desc))
				if shown := re.MatchString(help); shown != b.Enabled() {
					t.Errorf("mode %d, %d wide: KeyMap.%s %q %q enabled %v, on the help screen %v:\n%s",
						mode, w, name, b.Help().Key, b.Help().Desc, b.Enabled(), shown, help)
				}
			}
		}
	}
}

// TestHelpScrolls: the help scrolls when it does not fit, down to its last line and no further.
func TestHelpScrolls(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 80, 24, plainStyles())
	m = press(t, m, "?")
	f := m.frameView()
	total, h := len(helpLines(&f)), bodyHeight(&f, f.pod())
	if total <= h {
		t.Fatalf("the help (%d lines) fits in %d: nothing to scroll", total, h)
	}
	m = press(t, m, "pgdown", "pgdown", "pgdown", "down")
	if m.helpScreen.top != total-h {
		t.Errorf("scrolled to %d, want the last page at %d", m.helpScreen.top, total-h)
	}
	if v := m.View(); strings.Contains(v, "more below") || !strings.Contains(v, "ctrl+c always quits") {
		t.Errorf("the last page of the help:\n%s", v)
	}
	m = press(t, m, "pgup", "pgup", "pgup", "up", "esc")
	if m.helpScreen.top != 0 || m.helpScreen.open {
		t.Errorf("after scrolling up and esc: top %d shown %v", m.helpScreen.top, m.helpScreen.open)
	}
}

// keysMarkdown is README's keys section: a line per group of keyGroups, every binding of the
// default key maps (the fleet table's first) with its help.
func keysMarkdown() string {
	var b strings.Builder
	for _, g := range append([]keyGroup{DefaultFleetKeyMap().keyGroup()}, DefaultKeyMap().keyGroups()...) {
		var items []string
		for _, k := range g.keys {
			items = append(items, "`"+k.Help().Key+"` "+k.Help().Desc)
		}
		b.WriteString("- **" + g.title + "**: " + strings.Join(items, " · ") + "\n")
	}
	return b.String()
}

// TestREADMEKeys: README's keys section is keysMarkdown; go test ./ui -update writes it.
func TestREADMEKeys(t *testing.T) {
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	begin, end := "<!-- begin keys: go test ./ui -update -->\n", "<!-- end keys -->\n"
	i, j := strings.Index(readme, begin), strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks %q ... %q", strings.TrimSpace(begin), strings.TrimSpace(end))
	}
	i += len(begin)
	want := keysMarkdown()
	if *update {
		if readme[i:j] != want {
			if err := os.WriteFile(readmePath, []byte(readme[:i]+want+readme[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if diff := cmp.Diff(strings.Split(readme[i:j], "\n"), strings.Split(want, "\n")); diff != "" {
		t.Errorf("README.md's keys are not the key map's; run go test ./ui -update (-README +keys):\n%s", diff)
	}
}
