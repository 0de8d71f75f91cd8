package main

import (
	"context"
	"iter"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
	"github.com/spf13/cobra"
)

func (c *cli) appsListCmd() *cobra.Command {
	var (
		limit  int
		search string
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the account's apps",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			mc, _, err := c.mgmtClient(cmd)
			if err != nil {
				return err
			}
			opts := &management.ListAppsOptions{SearchKey: search, PerPage: perPage(limit)}
			// Every app's keys: shown once, by apps create.
			c.hidden = append(c.hidden, "apiKeys")
			return showList(c, cmd, limit, func(ctx context.Context) iter.Seq2[*management.App, error] {
				return mc.Apps.All(ctx, opts)
			}, []string{"ID", "NAME", "REGION", "STATE", "PLAN", "CREATED"}, func(a *management.App) []string {
				return []string{a.ID, a.Name, string(a.Region), string(a.State), a.Plan, when(chat.Timestamp(a.CreatedAt))}
			})
		},
	}
	addLimitFlag(cmd, &limit)
	cmd.Flags().StringVar(&search, "search", "", "keep apps whose name contains this text")
	return cmd
}

func (c *cli) appsCreateCmd() *cobra.Command {
	var name, region, version string
	var skipSample bool
	cmd := &cobra.Command{
		Use:   "create --name NAME --region REGION",
		Short: "Create an app",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if name == "" || region == "" {
				return usageErrorf("--name and --region are required")
			}
			mc, _, err := c.mgmtClient(cmd)
			if err != nil {
				return err
			}
			req := &management.CreateAppRequest{Name: name, Region: chat.Region(region), Version: version}
			if cmd.Flags().Changed("skip-sample-data") {
				req.SkipSampleData = &skipSample
			}
			return showOne(c, cmd, func(ctx context.Context) (*management.App, error) {
				return mc.Apps.Create(ctx, req)
			}, appTable)
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "the app's name")
	cmd.Flags().StringVar(&region, "region", "", "the app's region: us, eu or in")
	cmd.Flags().StringVar(&version, "version", "", "the API version of the app (default: the service's, 3)")
	cmd.Flags().BoolVar(&skipSample, "skip-sample-data", false, "create the app without sample users and groups")
	return cmd
}

func appTable(t *table, a *management.App) {
	t.row("id", a.ID)
	t.row("name", a.Name)
	t.row("region", string(a.Region))
	t.row("version", a.Version)
	t.row("state", string(a.State))
	t.row("plan", a.Plan)
	t.row("owner", a.Owner)
	t.row("createdAt", when(chat.Timestamp(a.CreatedAt)))
	if key, ok := a.APIKeys.Key(chat.ScopeFullAccess); ok {
		t.row("restApiKey", key)
	}
	if key, ok := a.APIKeys.Key(chat.ScopeAuthOnly); ok {
		t.row("authKey", key)
	}
}
