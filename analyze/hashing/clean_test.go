package hashing

import (
	"encoding/json"
	"strings"
	"testing"
)

// One host on a 2048-entry ring answers the whole hash space: its share
// and the level's min/max share are 1, not 0.999999999999999 (a sum of
// ring gaps ÷ 2^64).
func TestSharesWithoutFloatArtefacts(t *testing.T) {
	doc := "name: c\ntype: STATIC\nlb_policy: RING_HASH\nring_hash_lb_config: {minimum_ring_size: 2048}\nload_assignment:\n  cluster_name: c\n  endpoints:\n  - lb_endpoints:\n    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}\n"
	r := build(t, doc, HashOptions{})
	if p := r.Priorities[0]; p.MinShare != 1 || p.MaxShare != 1 {
		t.Errorf("min/max share %v %v, want 1", p.MinShare, p.MaxShare)
	}
	b, _ := json.Marshal(r)
	if strings.Contains(string(b), "99999999") || strings.Contains(string(b), "00000000") {
		t.Errorf("float artefacts in %s", b)
	}
}
