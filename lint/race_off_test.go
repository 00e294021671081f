//go:build !race

package lint

// raceSlowdown: see race_on_test.go.
const raceSlowdown = 1
