package cmdutil

import (
	"strings"

	"github.com/lbctl/lbctl/analyze/config"

	"github.com/urfave/cli/v3"
)

// LoadInputs reads the FILE arguments (or stdin for "-") as one
// configuration. Load errors are input errors (exit 3); warnings are
// printed to stderr and do not stop the command.
func LoadInputs(cmd *cli.Command, files []string) (*config.Config, error) {
	inputs := make([]config.Input, len(files))
	for i, f := range files {
		inputs[i] = config.Input{Path: f, Stdin: cmd.Root().Reader, SkipNonEnvoy: cmd.Bool("skip-non-envoy")}
	}
	live, err := LiveInputs(cmd)
	if err != nil {
		return nil, err
	}
	cfg, err := config.LoadLimited(append(inputs, live...), cmd.String("kind"), Limits(cmd))
	GuardSecrets(cmd, cfg)
	if err != nil {
		return cfg, InputError(err)
	}
	return cfg, nil
}

// LoadCluster is the start of the single-cluster commands (hash, subset,
// session): read the FILE arguments (stdin when there are none), print the
// load warnings, and find the --cluster.
func LoadCluster(cmd *cli.Command, name string) (*config.Config, *config.Cluster, error) {
	files := cmd.Args().Slice()
	if len(files) == 0 && !Live(cmd) {
		files = []string{"-"}
	}
	cfg, err := LoadInputs(cmd, files)
	if err != nil {
		return nil, nil, err
	}
	PrintWarnings(cmd, cfg)
	if name == "" {
		// One cluster in the input: nothing to choose between.
		if len(cfg.Clusters) == 1 {
			return cfg, cfg.Clusters[0], nil
		}
		return nil, nil, UsageErrorf("%s: --cluster NAME is required: the input holds %d clusters", cmd.Name, len(cfg.Clusters))
	}
	clusters, err := SelectClusters(cfg, []string{name})
	if err != nil {
		return nil, nil, err
	}
	return cfg, clusters[0], nil
}

// PrintWarnings writes load warnings to stderr (see reportWarnings).
func PrintWarnings(cmd *cli.Command, cfg *config.Config) { ReportWarnings(cmd, cfg) }

// KindFlag forces the document kind.
func KindFlag() cli.Flag {
	return &cli.StringFlag{Name: "kind", Usage: "read every document as this kind instead of detecting it: " + strings.Join(config.Kinds, ", "),
		Validator: OneOf("kind", config.Kinds...)}
}
