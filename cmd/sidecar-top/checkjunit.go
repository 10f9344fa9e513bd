package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/sidecar-top/sidecar-top/assert"
	"github.com/sidecar-top/sidecar-top/junit"
	"github.com/sidecar-top/sidecar-top/present"
)

// junitReport is check's JUnit report: a testcase per assertion, whose output lists every pod's
// value and whose failure the pods that failed it; and, live, one for --until when it was not
// met. Every text is made safe as on a terminal (present.Safe), line by line: a report is read
// with cat too, and XML cannot hold the C0 controls at all (encoding/xml writes U+FFFD for them),
// while the C1 controls, bidi overrides and zero-width characters it holds as they are.
func junitReport(results []checked, allowUncertain bool, src timelineSource) junit.Report {
	suite := junit.Suite{Name: present.Safe("sidecar-top check " + src.name)}
	for _, r := range results {
		suite.Add(junitCase(r, allowUncertain, src))
	}
	if src.missed != "" {
		suite.Add(junit.Case{
			Name: "--until", Classname: "sidecar-top.check",
			Failure: &junit.Failure{Message: present.Safe(src.missed), Type: "until", Text: present.Safe(src.missed)},
		})
	}
	return junit.NewReport(suite)
}

// junitCase is the testcase of one assertion checked.
func junitCase(r checked, allowUncertain bool, src timelineSource) junit.Case {
	c := junit.Case{Name: present.Safe(r.a.String()), Classname: "sidecar-top.check"}
	var all, bad []string
	for _, p := range r.o.Pods {
		line := present.Safe(fmt.Sprintf("pod %s: %s: %s", p.Pod, verdictWord(p.Truth), p.Detail))
		all = append(all, line)
		if !passes(p.Truth, allowUncertain) {
			bad = append(bad, line)
		}
	}
	c.SystemOut = strings.Join(all, "\n")
	if passes(r.o.Truth, allowUncertain) {
		return c
	}
	if len(bad) == 0 {
		bad = []string{present.Safe(outcomeText(r.o, src))}
	}
	kind := "false"
	if r.o.Truth == assert.Uncertain {
		kind = "uncertain"
	}
	c.Failure = &junit.Failure{Message: present.Safe(kind + ": " + outcomeText(r.o, src)), Type: kind, Text: strings.Join(bad, "\n")}
	return c
}

// writeJUnitFile writes the report to path, never over one of inputs, and whole or not at all
// (writeOutput).
func writeJUnitFile(path string, results []checked, allowUncertain bool, src timelineSource, inputs inputFiles) error {
	b, err := junitReport(results, allowUncertain, src).Marshal()
	if err != nil {
		return err
	}
	return writeOutput("--junit", path, inputs, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}
