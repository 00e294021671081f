package model

import (
	"os"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

// A stateful_session filter in a listener's default_filter_chain is found
// as in its filter_chains (Envoy serves unmatched connections with it).
func TestStatefulSessionsInDefaultFilterChain(t *testing.T) {
	data, err := os.ReadFile("testdata/session-default-chain.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadBytes("session-default-chain.yaml", data, "")
	if err != nil {
		t.Fatal(err)
	}
	ss := StatefulSessions(cfg)
	if len(ss) != 1 || ss[0].Config == nil || !ss[0].Config.GetStrict() {
		t.Fatalf("stateful sessions: %+v, want the one strict filter of the default chain", ss)
	}
}
