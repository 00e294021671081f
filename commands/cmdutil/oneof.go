package cmdutil

import (
	"strings"
	"time"
)

// OneOf validates a flag value against its allowed values.
func OneOf(flag string, values ...string) func(string) error {
	return func(v string) error {
		for _, ok := range values {
			if v == ok {
				return nil
			}
		}
		return UsageErrorf("--%s %q: expected one of %s%s", flag, v, strings.Join(values, ", "), DidYouMean(v, values))
	}
}

// Positive validates a duration flag: a negative or zero DURATION is a
// usage error naming the flag (exit 2), never a silent default.
func Positive(flag string) func(time.Duration) error {
	return func(d time.Duration) error {
		if d <= 0 {
			return UsageErrorf("--%s %s: expected a positive duration, e.g. 5s", flag, d)
		}
		return nil
	}
}
