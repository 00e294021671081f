package commands

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"

	"github.com/urfave/cli/v3"
)

// loadInputs reads the FILE arguments (or stdin for "-") as one
// configuration. Load errors are input errors (exit 3); warnings are
// printed to stderr and do not stop the command.
func loadInputs(cmd *cli.Command, files []string) (*config.Config, error) {
	inputs := make([]config.Input, len(files))
	for i, f := range files {
		inputs[i] = config.Input{Path: f, Stdin: cmd.Root().Reader, SkipNonEnvoy: cmd.Bool("skip-non-envoy")}
	}
	live, err := liveInputs(cmd)
	if err != nil {
		return nil, err
	}
	cfg, err := config.LoadLimited(append(inputs, live...), cmd.String("kind"), limits(cmd))
	guardSecrets(cmd, cfg)
	if err != nil {
		return cfg, inputError(err)
	}
	return cfg, nil
}

// loadCluster is the start of the single-cluster commands (hash, subset,
// session): read the FILE arguments (stdin when there are none), print the
// load warnings, and find the --cluster.
func loadCluster(cmd *cli.Command, name string) (*config.Config, *config.Cluster, error) {
	files := cmd.Args().Slice()
	if len(files) == 0 && !live(cmd) {
		files = []string{"-"}
	}
	cfg, err := loadInputs(cmd, files)
	if err != nil {
		return nil, nil, err
	}
	printWarnings(cmd, cfg)
	clusters, err := selectClusters(cfg, []string{name})
	if err != nil {
		return nil, nil, err
	}
	return cfg, clusters[0], nil
}

// printWarnings writes load warnings to stderr (see reportWarnings).
func printWarnings(cmd *cli.Command, cfg *config.Config) { reportWarnings(cmd, cfg) }

// selectClusters resolves --cluster names (all clusters when none given).
// An unknown name is a usage error that lists the known names.
func selectClusters(cfg *config.Config, names []string) ([]*config.Cluster, error) {
	if len(names) == 0 {
		return cfg.Clusters, nil
	}
	var out []*config.Cluster
	for _, n := range names {
		cl := cfg.Cluster(n)
		if cl == nil {
			return nil, usageErrorf("--cluster %q: no such cluster in %s; the clusters are: %s",
				n, strings.Join(cfg.Files, ", "), knownClusters(cfg))
		}
		out = append(out, cl)
	}
	return out, nil
}

func knownClusters(cfg *config.Config) string {
	names := cfg.ClusterNames()
	if len(names) == 0 {
		return "(none)"
	}
	sort.Strings(names)
	if len(names) > 20 {
		names = append(names[:20], fmt.Sprintf("… and %d more", len(names)-20))
	}
	return strings.Join(names, ", ")
}

// kindFlag forces the document kind.
func kindFlag() cli.Flag {
	return &cli.StringFlag{Name: "kind", Usage: "read every document as this kind instead of detecting it: " + strings.Join(config.Kinds, ", "),
		Validator: oneOf("kind", config.Kinds...)}
}
