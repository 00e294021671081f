package commands

import "github.com/urfave/cli/v3"

func manCommand() *cli.Command { return &cli.Command{Name: "man", Hidden: true} }
