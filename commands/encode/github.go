package encode

import "strings"

// GitHubData escapes a GitHub Actions workflow command's message as the
// Actions toolkit's escapeData does (%, CR, LF): lint, diff and test
// annotations share it.
func GitHubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// GitHubProperty escapes a workflow command's property value (the
// toolkit's escapeProperty: also ':' and ',').
func GitHubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
