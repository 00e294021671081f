package lint

import "testing"

func TestVerbs(t *testing.T) {
	if got := string(verbs(`cluster %q: %d%% of %s (%5.1f) %v`)); got != "qdsfv" {
		t.Errorf("verbs = %q", got)
	}
}
