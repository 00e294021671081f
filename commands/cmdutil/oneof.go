package cmdutil

import "strings"

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
