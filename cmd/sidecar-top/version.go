package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// newVersionCommand prints the version, as --version does. A pod named "version" is watched as
// pod/version.
func newVersionCommand(s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print sidecar-top's version (a pod named version is watched as pod/version)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintf(s.Out, "sidecar-top version %s\n", version)
			return err
		},
	}
}
