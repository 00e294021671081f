package commands

import (
	"runtime/debug"
	"strings"
)

// versionString names lbctl's version and the Envoy API it was built
// against (the go-control-plane module version).
func versionString() string {
	gcp := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/envoyproxy/go-control-plane/envoy" {
				gcp = d.Version
			}
		}
	}
	v := Version
	if !strings.HasPrefix(v, "v") && v != "dev" {
		v = "v" + v
	}
	return v + " (Envoy API: go-control-plane/envoy " + gcp + ")"
}
