package cmdutil

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"

	"github.com/urfave/cli/v3"
)

// MaxInputFlag bounds every input file and fetched answer, and their total
// (contract: Limits).
func MaxInputFlag() cli.Flag {
	return &cli.StringFlag{Name: "max-input", Value: strconv.Itoa(config.DefaultMaxInput>>20) + "MiB", Usage: "largest input accepted, per file or fetched answer and in total (e.g. 64MiB, 2GiB)",
		Validator: func(v string) error {
			_, err := ParseSize(v)
			return err
		}}
}

// Limits are the loader's bounds from the command line and the run's
// address-space limit (Env.AddressSpaceFit).
func Limits(cmd *cli.Command) config.Limits {
	n, _ := ParseSize(cmd.String("max-input")) // validated by the flag
	if fit := EnvOf(cmd).AddressSpaceFit(); fit > 0 && !cmd.IsSet("max-input") && fit < n {
		return config.Limits{MaxInput: fit, Hint: "lowered to fit the address-space limit (ulimit -v); raise that, or set --max-input to try anyway"}
	}
	return config.Limits{MaxInput: n}
}

var sizeUnits = []struct {
	suffix string
	mult   int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}}

// ParseSize reads a byte count: a number with an optional unit (B, K/KiB,
// M/MiB, G/GiB in powers of 1024, KB/MB/GB in powers of 1000).
func ParseSize(v string) (int64, error) {
	s, mult := strings.TrimSpace(v), int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("--max-input %q: want a positive size such as 512MiB", v)
	}
	return n * mult, nil
}
