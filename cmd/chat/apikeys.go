package main

import (
	"context"
	"iter"

	"github.com/chatrest/chat"
	"github.com/spf13/cobra"
)

func (c *cli) apiKeysListCmd() *cobra.Command {
	var (
		limit int
		scope string
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the app's API keys",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			opts := &chat.ListAPIKeysOptions{PageOptions: chat.PageOptions{PerPage: perPage(limit)}, Scope: chat.Scope(scope)}
			return showList(c, cmd, limit, func(ctx context.Context) iter.Seq2[*chat.APIKey, error] {
				return client.APIKeys.All(ctx, opts)
			}, []string{"KEY", "NAME", "SCOPE", "CREATED"}, func(k *chat.APIKey) []string {
				key := string(k.APIKey)
				if key == c.settings.APIKey {
					key = redacted + " (this command's)"
				}
				return []string{key, k.Name, string(k.Scope), when(k.CreatedAt)}
			})
		},
	}
	addLimitFlag(cmd, &limit)
	cmd.Flags().StringVar(&scope, "scope", "", "keep keys of this scope: fullAccess or authOnly")
	return cmd
}

func (c *cli) apiKeysCreateCmd() *cobra.Command {
	var name, scope string
	cmd := &cobra.Command{
		Use:   "create --name NAME [--scope fullAccess|authOnly]",
		Short: "Create an API key, and show it",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if name == "" {
				return usageErrorf("--name is required")
			}
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			return showOne(c, cmd, func(ctx context.Context) (*chat.APIKey, error) {
				return client.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: name, Scope: chat.Scope(scope)})
			}, apiKeyTable)
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "the key's name")
	cmd.Flags().StringVar(&scope, "scope", string(chat.ScopeAuthOnly), "fullAccess (every operation) or authOnly (users and auth tokens)")
	return cmd
}

func apiKeyTable(t *table, k *chat.APIKey) {
	t.row("apiKey", string(k.APIKey))
	t.row("name", k.Name)
	t.row("scope", string(k.Scope))
	t.row("createdAt", when(k.CreatedAt))
}
