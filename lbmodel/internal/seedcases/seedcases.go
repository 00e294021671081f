// Package seedcases holds the seed documents' tables that tests of both
// lbmodel and lbmodel/failure reproduce: one copy, cited once. It imports
// nothing of ours (lbmodel's own tests import it), so its levels are plain
// counts that each test turns into its own inputs.
package seedcases

// Level is a priority level of Hosts hosts with the default
// overprovisioning factor: Healthy healthy, Degraded degraded, the rest
// unhealthy.
type Level struct{ Hosts, Healthy, Degraded int }

// Pct is a seed-table level: 100 hosts, healthy of them healthy.
func Pct(healthy int) Level { return Level{Hosts: 100, Healthy: healthy} }

// Load is one expected priority load computation.
type Load struct {
	Name      string
	Levels    []Level
	Threshold int
	Healthy   []int  // expected HealthyLoad per level
	Degraded  []int  // expected DegradedLoad per level; nil means all 0
	Panic     []bool // expected Panic per level; nil means not checked
	Total     int    // expected NormalizedTotalAvailability
	// TotalPanic is the expected TotalPanic flag.
	TotalPanic bool
}

var (
	f2 = []bool{false, false}
	t2 = []bool{true, true}
	f3 = []bool{false, false, false}
)

// Seed001 are seed 001's priority tables (load_balancing.rst, "Priority
// levels"): 100 hosts per level, OPF 140, threshold 50; errata 4, 6 and 7
// of priority.md §9 included.
var Seed001 = []Load{
	// Table 1: P=1 100% healthy.
	{Name: "table1 row1 100%", Levels: []Level{Pct(100), Pct(100)}, Threshold: 50, Healthy: []int{100, 0}, Panic: f2, Total: 100},
	{Name: "table1 row2 72%", Levels: []Level{Pct(72), Pct(100)}, Threshold: 50, Healthy: []int{100, 0}, Panic: f2, Total: 100},
	{Name: "table1 row3 71%", Levels: []Level{Pct(71), Pct(100)}, Threshold: 50, Healthy: []int{99, 1}, Panic: f2, Total: 100},
	{Name: "table1 row4 50%", Levels: []Level{Pct(50), Pct(100)}, Threshold: 50, Healthy: []int{70, 30}, Panic: f2, Total: 100},
	{Name: "table1 row5 25%", Levels: []Level{Pct(25), Pct(100)}, Threshold: 50, Healthy: []int{35, 65}, Panic: f2, Total: 100},
	{Name: "table1 row6 0%", Levels: []Level{Pct(0), Pct(100)}, Threshold: 50, Healthy: []int{0, 100}, Panic: f2, Total: 100},
	// Table 2.
	{Name: "table2 row1 100/100", Levels: []Level{Pct(100), Pct(100)}, Threshold: 50, Healthy: []int{100, 0}, Panic: f2, Total: 100},
	{Name: "table2 row2 72/72", Levels: []Level{Pct(72), Pct(72)}, Threshold: 50, Healthy: []int{100, 0}, Panic: f2, Total: 100},
	{Name: "table2 row3 71/71", Levels: []Level{Pct(71), Pct(71)}, Threshold: 50, Healthy: []int{99, 1}, Panic: f2, Total: 100},
	{Name: "table2 row4 50/50", Levels: []Level{Pct(50), Pct(50)}, Threshold: 50, Healthy: []int{70, 30}, Panic: f2, Total: 100},
	{Name: "table2 row5 25/100", Levels: []Level{Pct(25), Pct(100)}, Threshold: 50, Healthy: []int{35, 65}, Panic: f2, Total: 100},
	// Erratum 6: 50/50 only because both levels panic and have equal host counts.
	{Name: "table2 row6 25/25 erratum6: total panic by host count", Levels: []Level{Pct(25), Pct(25)}, Threshold: 50,
		Healthy: []int{50, 50}, Panic: t2, Total: 70, TotalPanic: true},
	{Name: "table2 row6 25/25 erratum6: unequal host counts", Levels: []Level{{100, 25, 0}, {300, 75, 0}}, Threshold: 50,
		Healthy: []int{25, 75}, Panic: t2, Total: 70, TotalPanic: true},
	// Table 3.
	{Name: "table3 row1 100/100/100", Levels: []Level{Pct(100), Pct(100), Pct(100)}, Threshold: 50, Healthy: []int{100, 0, 0}, Panic: f3, Total: 100},
	{Name: "table3 row2 72/72/100", Levels: []Level{Pct(72), Pct(72), Pct(100)}, Threshold: 50, Healthy: []int{100, 0, 0}, Panic: f3, Total: 100},
	{Name: "table3 row3 71/71/100", Levels: []Level{Pct(71), Pct(71), Pct(100)}, Threshold: 50, Healthy: []int{99, 1, 0}, Panic: f3, Total: 100},
	{Name: "table3 row4 50/50/100", Levels: []Level{Pct(50), Pct(50), Pct(100)}, Threshold: 50, Healthy: []int{70, 30, 0}, Panic: f3, Total: 100},
	{Name: "table3 row5 25/100/100", Levels: []Level{Pct(25), Pct(100), Pct(100)}, Threshold: 50, Healthy: []int{35, 65, 0}, Panic: f3, Total: 100},
	{Name: "table3 row6 25/25/100 erratum4: code 35/35/30 not 25/25/50", Levels: []Level{Pct(25), Pct(25), Pct(100)}, Threshold: 50,
		Healthy: []int{35, 35, 30}, Panic: f3, Total: 100},
	// Erratum 7: "dips below 72%" is approximate; 5 of 7 (71.4%) is fully healthy.
	{Name: "erratum7 5 of 7 healthy is 100", Levels: []Level{{7, 5, 0}, Pct(100)}, Threshold: 50, Healthy: []int{100, 0}, Panic: f2, Total: 100},
}
