// Package junit writes JUnit XML reports, as Jenkins, GitLab and GitHub's test reporters read
// them: suites of test cases, each passed or failed, with what it wrote.
package junit

import "encoding/xml"

// Report is a JUnit XML document: its suites, with the totals of their tests and failures.
type Report struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Suites   []Suite  `xml:"testsuite"`
}

// Suite is a suite of test cases, with their count and how many failed.
type Suite struct {
	Name     string `xml:"name,attr"`
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Cases    []Case `xml:"testcase"`
}

// Case is a test case: passed when Failure is nil. SystemOut is what it wrote, shown beside it.
type Case struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	Failure   *Failure `xml:"failure,omitempty"`
	SystemOut string   `xml:"system-out,omitempty"`
}

// Failure is why a case failed: a line (Message), a kind (Type) and the whole of it (Text).
type Failure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// Add appends c to the suite's cases, and counts it.
func (s *Suite) Add(c Case) {
	s.Cases = append(s.Cases, c)
	s.Tests++
	if c.Failure != nil {
		s.Failures++
	}
}

// NewReport is a report of suites, with their totals.
func NewReport(suites ...Suite) Report {
	r := Report{Suites: suites}
	for _, s := range suites {
		r.Tests += s.Tests
		r.Failures += s.Failures
	}
	return r
}

// Marshal is the report as a document: the XML header, then the report indented by two spaces,
// ending with a newline. Text is written as encoding/xml escapes it: the C0 controls it cannot
// hold become U+FFFD, so a report meant to be read on a terminal too is made safe before.
func (r Report) Marshal() ([]byte, error) {
	b, err := xml.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(b, '\n')...), nil
}
