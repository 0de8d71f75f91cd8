package main

import (
	"context"

	"github.com/chatrest/chat"
	"github.com/spf13/cobra"
)

func (c *cli) tokensCreateCmd() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "create UID",
		Short: "Mint an auth token for a user, to log in as them (e.g. a tester)",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			return showOne(c, cmd, func(ctx context.Context) (*chat.AuthToken, error) {
				return client.AuthTokens.Create(ctx, args[0], &chat.CreateAuthTokenRequest{Force: force})
			}, tokenColumns)
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "mint a new token even when the user has one")
	return cmd
}

func (c *cli) tokensDeleteCmd() *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "delete UID [TOKEN]",
		Short: "Delete one of a user's auth tokens, or all of them with --all",
		Args: func(cmd *cobra.Command, args []string) error {
			if all {
				return exactArgs(1)(cmd, args)
			}
			return exactArgs(2)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			return showOne(c, cmd, func(ctx context.Context) (*chat.Result, error) {
				if all {
					return client.AuthTokens.Flush(ctx, args[0])
				}
				return client.AuthTokens.Delete(ctx, args[0], args[1])
			}, resultColumns)
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "delete every auth token of the user")
	return cmd
}
