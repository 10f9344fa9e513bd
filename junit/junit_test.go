package junit

import (
	"encoding/xml"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMarshal: a suite counts its cases and failures, the report sums its suites, and the
// document is the header and the report indented, as the test reporters read it.
func TestMarshal(t *testing.T) {
	s := Suite{Name: "check <a&b>"}
	s.Add(Case{Name: "holds", Classname: "c", SystemOut: "pod a: pass"})
	s.Add(Case{Name: "fails", Classname: "c", Failure: &Failure{Message: "false: 1 > 2", Type: "false", Text: "pod a: FAIL\npod b: FAIL"}})
	r := NewReport(s, Suite{Name: "empty"})
	if r.Tests != 2 || r.Failures != 1 || s.Tests != 2 || s.Failures != 1 {
		t.Errorf("report %d tests, %d failures; suite %d, %d; want 2, 1 both", r.Tests, r.Failures, s.Tests, s.Failures)
	}
	got, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want := xml.Header + `<testsuites tests="2" failures="1">
  <testsuite name="check &lt;a&amp;b&gt;" tests="2" failures="1" errors="0" skipped="0">
    <testcase name="holds" classname="c">
      <system-out>pod a: pass</system-out>
    </testcase>
    <testcase name="fails" classname="c">
      <failure message="false: 1 &gt; 2" type="false">pod a: FAIL&#xA;pod b: FAIL</failure>
    </testcase>
  </testsuite>
  <testsuite name="empty" tests="0" failures="0" errors="0" skipped="0"></testsuite>
</testsuites>
`
	if diff := cmp.Diff(string(got), want); diff != "" {
		t.Errorf("-got +want:\n%s", diff)
	}
	var back Report
	if err := xml.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	r.XMLName = xml.Name{Local: "testsuites"}
	if diff := cmp.Diff(back, r); diff != "" {
		t.Errorf("read back, -got +want:\n%s", diff)
	}
}
