package diff

import (
	"slices"
	"testing"
)

// A cluster whose settings changed (panic threshold 50 → 40, every weight
// doubled) but whose shares did not is left out of clusters and named in
// summary.settings_only; graded's traffic changes and stays.
func TestSettingsOnly(t *testing.T) {
	_, _, r := loadCase(t, "settings")
	if len(r.Clusters) != 1 || r.Clusters[0].Name != "graded" || r.Summary.ClustersChanged != 1 || !r.Changed {
		t.Fatalf("clusters %+v, summary %+v", r.Clusters, r.Summary)
	}
	if !slices.Equal(r.Summary.SettingsOnly, []string{"tuned"}) {
		t.Errorf("settings_only %q", r.Summary.SettingsOnly)
	}
	// Findings rebuild the summary; the names stay.
	r.SetFindings(Findings{})
	if !slices.Equal(r.Summary.SettingsOnly, []string{"tuned"}) {
		t.Errorf("after SetFindings: settings_only %q", r.Summary.SettingsOnly)
	}
	// The same files on both sides: nothing changed, nothing named.
	old, _, _ := loadCase(t, "settings")
	same, err := Build(old, old, Options{Explain: explainBatch})
	if err != nil || same.Changed || same.Summary.SettingsOnly != nil {
		t.Errorf("same config: %v %+v", err, same.Summary)
	}
}

// --fail-on-shift measures a priority by its whole load: graded's P0 goes
// from 100% healthy to 56% healthy + 44% degraded, a 0-point priority
// shift; its largest move is a healthy host's, 20% → 28%.
func TestShiftWholePriorityLoad(t *testing.T) {
	_, _, r := loadCase(t, "settings")
	p := r.Clusters[0].Priorities[0]
	if *p.HealthyLoad.Old != 100 || *p.HealthyLoad.New != 56 || *p.DegradedLoad.New != 44 {
		t.Fatalf("P0 %+v %+v", p.HealthyLoad, p.DegradedLoad)
	}
	if got := r.MaxShiftPoints(); got < 7.999 || got > 8.001 {
		t.Errorf("max shift %v points, want 8 (a host's), not 44 (healthy load alone)", got)
	}
}
