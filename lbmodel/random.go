package lbmodel

// RandomShares is RandomLoadBalancer: hosts[random % n], weights ignored.
func RandomShares(n int) []float64 {
	return RandomSharesGiven(n, FullBucket)
}

// Bucket is a range lo..hi of choosePriority's h = random%100 + 1.
type Bucket struct{ Lo, Hi int }

// FullBucket is every value of h: no conditioning.
var FullBucket = Bucket{1, 100}

// RandomSharesGiven is RandomLoadBalancer::peekOrChoose exactly: it draws
// one random r, uses it as the priority hash, and picks hosts[r % n] with
// the same r. Given that the priority pick put h = r%100+1 in b, r%n is not
// uniform unless n divides evenly: with g = gcd(100, n), host j is reached
// from residues a ≡ j (mod g), each with probability g/n. The 2^64 modulo
// bias is ignored.
func RandomSharesGiven(n int, b Bucket) []float64 {
	out := make([]float64, n)
	if n <= 0 || b.Lo < 1 || b.Hi > 100 || b.Lo > b.Hi {
		return out
	}
	g := gcd(100, n)
	count := make([]int, g) // residues a in the bucket with a%g == c
	for a := b.Lo - 1; a <= b.Hi-1; a++ {
		count[a%g]++
	}
	den := float64(n) * float64(b.Hi-b.Lo+1)
	for j := range out {
		out[j] = float64(count[j%g]*g) / den
	}
	return out
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
