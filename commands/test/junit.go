package test

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/lbctl/lbctl/analyze/expect"
)

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitFailure `xml:"failure"`
	Skipped   *junitSkipped `xml:"skipped"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// JUnit writes JUnit XML: one testsuite per TESTS file (every file named,
// in order, even one without tests), one testcase per test, a failure
// element per failing test listing its expectations; a test with nothing
// checked is skipped.
func JUnit(w io.Writer, res *expect.Results, files []string) error {
	doc := junitSuites{Name: "lbctl test"}
	index := map[string]int{}
	suite := func(file string) *junitSuite {
		i, ok := index[file]
		if !ok {
			i = len(doc.Suites)
			index[file] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: safe(file), Cases: []junitCase{}})
		}
		return &doc.Suites[i]
	}
	for _, f := range files {
		suite(f)
	}
	for _, t := range res.Tests {
		s := suite(t.Pos.File)
		c := junitCase{Name: safe(t.Name), Classname: safe(t.Pos.File), File: safe(t.Pos.File), Line: t.Pos.Line}
		s.Tests++
		doc.Tests++
		switch {
		case t.Passed == nil:
			c.Skipped = &junitSkipped{Message: safe("not checked: " + strings.Join(t.NotChecked, ", "))}
			s.Skipped++
			doc.Skipped++
		case !*t.Passed:
			var lines, first []string
			for _, f := range t.Failures {
				line := fmt.Sprintf("%s: got %s, want %s", safe(f.Expect), gotText(f.Got), safe(f.Want))
				first = append(first, line)
				lines = append(lines, line+" ("+safe(f.At)+")")
			}
			c.Failure = &junitFailure{Message: strings.Join(first, "; "), Type: "expectation", Text: strings.Join(lines, "\n")}
			s.Failures++
			doc.Failures++
		}
		s.Cases = append(s.Cases, c)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
