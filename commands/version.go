package commands

import (
	"runtime/debug"
	"strings"
)

// Version is lbctl's version; release builds set it with -ldflags -X.
var Version = "dev"

// EnvoyAPI names the Envoy API lbctl knows; release builds may set it
// with -ldflags -X, otherwise it is the go-control-plane module version
// lbctl was built with.
var EnvoyAPI = ""

// versionString names lbctl's version and the Envoy API it was built
// against (the go-control-plane module version).
func versionString() string {
	bi, _ := debug.ReadBuildInfo()
	return versionFrom(Version, EnvoyAPI, bi)
}

// versionFrom: -ldflags -X wins; else `go install …@vX.Y.Z` records the
// module version in the build info; else "dev".
func versionFrom(version, api string, bi *debug.BuildInfo) string {
	given := api != ""
	if !given {
		api = "go-control-plane/envoy unknown"
	}
	if bi != nil {
		for _, d := range bi.Deps {
			if d.Path == "github.com/envoyproxy/go-control-plane/envoy" && !given {
				api = "go-control-plane/envoy " + d.Version
			}
		}
		if v := bi.Main.Version; version == "dev" && v != "" && v != "(devel)" {
			version = v
		}
	}
	if !strings.HasPrefix(version, "v") && version != "dev" {
		version = "v" + version
	}
	return version + " (Envoy API: " + api + ")"
}
