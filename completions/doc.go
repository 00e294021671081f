// Package completions holds lbctl's shell completion scripts, exactly as
// `lbctl completion SHELL` prints them, for packagers and for users who
// install them from the repository. Regenerate them with
// `go generate ./completions`; help.TestCompletionScriptsCurrent (commands/help) fails
// when they drift from the binary.
package completions

//go:generate sh -c "go run .. completion bash > lbctl.bash"
//go:generate sh -c "go run .. completion zsh > _lbctl"
//go:generate sh -c "go run .. completion fish > lbctl.fish"
//go:generate sh -c "go run .. completion powershell > lbctl.ps1"
