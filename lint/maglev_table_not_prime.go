package lint

// LB1109 maglev-table-not-prime (ENV-MAGLEV-PRIME).
var _ = register(&Rule{
	ID: "LB1109", Name: "maglev-table-not-prime", Spec: "ENV-MAGLEV-PRIME",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc: "A Maglev table_size that is not prime. Maglev's permutation (offset + i*skip mod M) only visits " +
		"every slot when M is prime; MaglevLoadBalancer (maglev_lb.cc, legacy and typed constructors) throws " +
		"\"The table size of maglev must be prime number\". The default 65537 is prime.",
	Hint: "Use a prime table size such as 65537 or 5000011.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			sizes, msgs := p.maglevTables(cl.Proto)
			for i, n := range sizes {
				if n <= 5000011 && !isPrime(n) { // larger sizes are LB1003
					p.Report(p.Cfg.Sources.ValuePos(msgs[i], "table_size"), "cluster %q: Maglev table_size %d is not prime", cl.Name(), n)
				}
			}
		}
	},
})

// isPrime is trial division, enough for table sizes up to 5000011.
func isPrime(n uint64) bool {
	if n < 2 {
		return false
	}
	for d := uint64(2); d*d <= n; d++ {
		if n%d == 0 {
			return false
		}
	}
	return true
}
