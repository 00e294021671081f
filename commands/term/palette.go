package term

// Color is a named colour of lbctl's palette (an ANSI 256 index or a hex
// colour); the renderers name what a colour means, never its number.
type Color string

// The palette.
const (
	Title   Color = "11" // a cluster's name; warnings, a queued session
	Alarm   Color = "9"  // panic, failure, removed, errors
	Good    Color = "10" // added, a picked session, the caret under a finding
	Heading Color = "12" // table headers; a delegated session
	Rule    Color = "8"  // table rules
	Accent  Color = "6"  // share bars
	Info    Color = "14" // information findings
)

// Chart is the Okabe–Ito palette, distinguishable with the common
// colour-vision deficiencies: the sweep chart's series, in the terminal
// and in SVG alike.
var Chart = []Color{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"}
