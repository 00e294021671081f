//go:build race

package lint

// raceSlowdown scales the time bounds of tests that guard against
// super-linear work: the race detector runs code 5-10x slower.
const raceSlowdown = 10
