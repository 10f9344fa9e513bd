package watch

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// markView is a rule as a test compares it: the pattern by its source.
type markView struct{ Container, Name, Pattern string }

func viewRules(rs []MarkRule) []markView {
	var out []markView
	for _, r := range rs {
		out = append(out, markView{r.Container, r.Name, r.Pattern.String()})
	}
	return out
}

func TestParseMark(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    markView
		wantErr string
	}{
		{in: "envoy:listening=all clusters initialized", want: markView{"envoy", "listening", "all clusters initialized"}},
		{in: "app:sigterm=caught SIGTERM", want: markView{"app", "sigterm", "caught SIGTERM"}},
		{in: "*:ready=^ready$", want: markView{"*", "ready", "^ready$"}},
		{in: "app:db.up=addr=10.0.0.1:5432", want: markView{"app", "db.up", "addr=10.0.0.1:5432"}},
		{in: "app:x=a:b=c", want: markView{"app", "x", "a:b=c"}},
		{in: "app:Start_2-b=(?i)hello", want: markView{"app", "Start_2-b", "(?i)hello"}},
		{in: "app-sigterm=x", wantErr: `mark "app-sigterm=x": want CONTAINER:NAME=REGEX (no ':' after the container)`},
		{in: "app:sigterm", wantErr: `mark "app:sigterm": want CONTAINER:NAME=REGEX (no '=' after the name)`},
		{in: ":sigterm=x", wantErr: `mark ":sigterm=x": the container is empty (use * for any container)`},
		{in: "App:sigterm=x", wantErr: `mark "App:sigterm=x": "App" is not a container name: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
		{in: "app:=x", wantErr: `mark "app:=x": the name is empty`},
		{in: "app:a b=x", wantErr: `mark "app:a b=x": name "a b": only letters, digits, '-', '_' and '.'`},
		{in: "app:" + strings.Repeat("n", 41) + "=x", wantErr: `mark "app:nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn=x": the name is longer than 40 bytes`},
		{in: "app:prestop=x", wantErr: `mark "app:prestop=x": "prestop" is a built-in milestone a log line cannot refine (those it can: start, ready, sigterm, exit); choose another name`},
		{in: "app:sigterm=", wantErr: `mark "app:sigterm=": the pattern is empty: it would match every line`},
		{in: "app:sigterm=caught (SIGTERM", wantErr: "mark \"app:sigterm=caught (SIGTERM\": bad pattern: error parsing regexp: missing closing ): `caught (SIGTERM`"},
		{in: "app:n\x1b[31m=x", wantErr: `mark "app:n\x1b[31m=x": name "n\x1b[31m": only letters, digits, '-', '_' and '.'`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			r, err := ParseMark(tc.in)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("ParseMark(%q) error = %v, want %s", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(viewRules([]MarkRule{r})[0], tc.want); diff != "" {
				t.Errorf("ParseMark(%q) (-got +want):\n%s", tc.in, diff)
			}
		})
	}
}

func TestParseMarksFile(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []markView
		wantErr  string
	}{
		{name: "yaml", in: `
- container: envoy
  name: listening
  pattern: all clusters initialized
- container: "*"
  name: sigterm
  pattern: 'caught SIG(TERM|INT)'
`, want: []markView{{"envoy", "listening", "all clusters initialized"}, {"*", "sigterm", "caught SIG(TERM|INT)"}}},
		{name: "json", in: `[{"container":"app","name":"exit","pattern":"bye"}]`, want: []markView{{"app", "exit", "bye"}}},
		{name: "unknown field", in: "- container: app\n  name: x\n  patern: y\n",
			wantErr: `marks.yaml: want a list of {container, name, pattern}: error unmarshaling JSON: while decoding JSON: json: unknown field "patern"`},
		{name: "not a list", in: "container: app\n", wantErr: "marks.yaml: want a list of {container, name, pattern}: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal object into Go value of type []watch.markFileEntry"},
		{name: "empty", in: "\n  \n", wantErr: "marks.yaml: no marks in the file"},
		{name: "empty list", in: "[]", wantErr: "marks.yaml: no marks in the file"},
		{name: "bad regex", in: "- {container: app, name: up, pattern: 'a[b'}\n",
			wantErr: "marks.yaml: mark 1 (\"up\"): bad pattern: error parsing regexp: missing closing ]: `[b`"},
		{name: "no container", in: "- {name: up, pattern: x}\n- {container: app, name: down, pattern: y}\n",
			wantErr: `marks.yaml: mark 1 ("up"): the container is empty (use * for any container)`},
		{name: "second bad", in: "- {container: app, name: up, pattern: x}\n- {container: app, name: '', pattern: y}\n",
			wantErr: `marks.yaml: mark 2 (""): the name is empty`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := ParseMarksFile([]byte(tc.in), "marks.yaml")
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v, want %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(viewRules(rs), tc.want); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
		})
	}
}

func TestMarksMatch(t *testing.T) {
	var rules []MarkRule
	for _, s := range []string{"app:sigterm=caught SIGTERM", "*:bye=SIG", "envoy:listening=initialized"} {
		r, err := ParseMark(s)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r)
	}
	m := NewMarks(rules...)
	type match struct{ container, line, want string }
	var got []string
	cases := []match{
		{"app", "caught SIGTERM, draining", "sigterm"}, // the first rule that matches wins
		{"envoy", "caught SIGTERM", "bye"},
		{"envoy", "all clusters initialized", "listening"},
		{"app", "all clusters initialized", ""},
		{"db", "nothing", ""},
	}
	var want []string
	for _, c := range cases {
		got = append(got, m.Match(c.container, []byte(c.line)))
		want = append(want, c.want)
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("Match (-got +want):\n%s", diff)
	}
	if !m.For("db") || (Marks{}).For("app") || (Marks{}).Match("app", []byte("x")) != "" {
		t.Error("For: a * mark applies to every container; no marks apply to none")
	}
	only := NewMarks(rules[2])
	if only.For("app") || !only.For("envoy") {
		t.Error("For: an envoy mark applies to envoy only")
	}
}

// FuzzParseMark: a mark either parses into parts that make it up again, or fails with one
// line that names it; never a panic.
func FuzzParseMark(f *testing.F) {
	for _, s := range []string{"envoy:listening=all clusters initialized", "*:sigterm=(?i)sigterm", "a:b=c:d=e",
		":x=y", "app:=x", "app:x=", "app:x=(", "app", "app:x", "app:prestop=x", "app:\xff=x", "\x00:\x00=\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseMark(s)
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") && !strings.ContainsAny(s, "\n\r") || !strings.HasPrefix(msg, "mark ") {
				t.Fatalf("error for %q is not one line naming the mark: %q", s, msg)
			}
			return
		}
		if got := r.Container + ":" + r.Name + "=" + r.Pattern.String(); got != s {
			t.Fatalf("ParseMark(%q) = %q", s, got)
		}
		if r.Container == "" || r.Name == "" || !utf8.ValidString(r.Name) || strings.ContainsAny(r.Container, ":=") {
			t.Fatalf("ParseMark(%q) accepted %+v", s, r.Mark)
		}
	})
}
