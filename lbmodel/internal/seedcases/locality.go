package seedcases

// LocalityRow is a row of the seed 003 (and seed 001) locality table: X
// weight 1 with Healthy of 100 hosts healthy, Y weight 2 100% healthy, OPF
// 1.4.
type LocalityRow struct {
	Healthy      int
	X            float64 // the code's float share of X
	SeedX, SeedY int     // the seed's integer percents
	// Erratum marks the 69% row (locality.md §6 erratum 1: the doc says
	// 32/68, the code gives 32.57/67.43, i.e. 33/67).
	Erratum bool
}

// Seed003 is the seed's locality table with the code's float shares; their
// nearest integer percent matches the seed except the erratum row.
var Seed003 = []LocalityRow{
	{100, 1.0 / 3, 33, 67, false},
	{70, 0.98 / 2.98, 33, 67, false},
	{69, 0.966 / 2.966, 32, 68, true},
	{50, 0.7 / 2.7, 26, 74, false},
	{25, 0.35 / 2.35, 15, 85, false},
	{0, 0, 0, 100, false},
}
