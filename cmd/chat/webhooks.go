package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"iter"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
	"github.com/spf13/cobra"
)

// webhookApp returns a management client and the app whose webhooks the
// command manages.
func (c *cli) webhookApp(cmd *cobra.Command) (*management.Client, string, error) {
	mc, s, err := c.mgmtClient(cmd)
	if err != nil {
		return nil, "", err
	}
	app, _ := cmd.Flags().GetString("app")
	if app == "" {
		app = s.AppID
	}
	if app == "" {
		return nil, "", usageErrorf("no app: give --app, or set $CHAT_APP_ID or app-id in a profile")
	}
	return mc, app, nil
}

// single is an iterator over the items of one answer.
func single[T any](items []T, err error) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		if err != nil {
			yield(nil, err)
			return
		}
		for i := range items {
			if !yield(&items[i], nil) {
				return
			}
		}
	}
}

func (c *cli) webhooksListCmd() *cobra.Command {
	var (
		limit  int
		search string
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the app's webhooks",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			mc, app, err := c.webhookApp(cmd)
			if err != nil {
				return err
			}
			return showList(c, cmd, limit, func(ctx context.Context) iter.Seq2[*management.Webhook, error] {
				page, err := mc.Webhooks.List(ctx, app, &management.ListWebhooksOptions{SearchKey: search, PerPage: 1000})
				if err != nil {
					return single[management.Webhook](nil, err)
				}
				return single(page.Data, nil)
			}, []string{"ID", "NAME", "URL", "ENABLED", "CREATED"}, func(w *management.Webhook) []string {
				return []string{w.ID, w.Name, shownURL(w.URL), yesNo(w.Enabled), when(w.CreatedAt)}
			})
		},
	}
	addLimitFlag(cmd, &limit)
	cmd.Flags().StringVar(&search, "search", "", "keep webhooks whose name matches this text")
	return cmd
}

// webhookFlags are the flags of webhooks create and update.
type webhookFlags struct {
	name, url, username       string
	passwordStdin             bool
	enabled, retry, basicAuth bool
}

func (w *webhookFlags) add(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&w.name, "name", "", "the webhook's name")
	f.StringVar(&w.url, "url", "", "the https URL events are delivered to")
	f.BoolVar(&w.basicAuth, "basic-auth", false, "deliver with HTTP Basic credentials (--username, --password-stdin)")
	f.StringVar(&w.username, "username", "", "the Basic credentials' user name")
	f.BoolVar(&w.passwordStdin, "password-stdin", false, "read the Basic credentials' password from standard input")
	f.BoolVar(&w.enabled, "enabled", true, "deliver events (--enabled=false to pause)")
	f.BoolVar(&w.retry, "retry", false, "retry failed deliveries")
}

// password reads a password from standard input when asked to (a
// --password-stdin flag), and hides it from the command's output.
func (c *cli) password(fromStdin bool) (string, error) {
	if !fromStdin {
		return "", nil
	}
	line, err := bufio.NewReader(c.stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	pw := strings.TrimRight(line, "\r\n")
	c.hidePassword(pw)
	return pw, nil
}

func (c *cli) webhooksCreateCmd() *cobra.Command {
	var w webhookFlags
	cmd := &cobra.Command{
		Use:   "create WEBHOOK_ID --name NAME --url URL",
		Short: "Create a webhook (then subscribe it with webhooks triggers add)",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if w.name == "" || w.url == "" {
				return usageErrorf("--name and --url are required")
			}
			pw, err := c.password(w.passwordStdin)
			if err != nil {
				return err
			}
			mc, app, err := c.webhookApp(cmd)
			if err != nil {
				return err
			}
			req := &management.CreateWebhookRequest{ID: args[0], Name: w.name, URL: w.url, UseBasicAuth: w.basicAuth,
				Username: w.username, Password: chat.Secret(pw), Enabled: &w.enabled, RetryOnFailure: w.retry}
			return showOne(c, cmd, func(ctx context.Context) (*management.Webhook, error) {
				return mc.Webhooks.Create(ctx, app, req)
			}, webhookTable)
		},
	}
	w.add(cmd)
	return cmd
}

func (c *cli) webhooksUpdateCmd() *cobra.Command {
	var w webhookFlags
	cmd := &cobra.Command{
		Use:   "update WEBHOOK_ID",
		Short: "Change a webhook",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var req management.UpdateWebhookRequest
			f := cmd.Flags()
			if f.Changed("name") {
				req.Name = &w.name
			}
			if f.Changed("url") {
				req.URL = &w.url
			}
			if f.Changed("basic-auth") {
				req.UseBasicAuth = &w.basicAuth
			}
			if f.Changed("username") {
				req.Username = &w.username
			}
			if f.Changed("enabled") {
				req.Enabled = &w.enabled
			}
			if f.Changed("retry") {
				req.RetryOnFailure = &w.retry
			}
			if w.passwordStdin {
				pw, err := c.password(w.passwordStdin)
				if err != nil {
					return err
				}
				s := chat.Secret(pw)
				req.Password = &s
			}
			if !anyFlagChanged(cmd, "name", "url", "basic-auth", "username", "password-stdin", "enabled", "retry") {
				return usageErrorf("nothing to change: give at least one of --name, --url, --basic-auth, --username, --password-stdin, --enabled, --retry")
			}
			mc, app, err := c.webhookApp(cmd)
			if err != nil {
				return err
			}
			return showOne(c, cmd, func(ctx context.Context) (*management.Webhook, error) {
				return mc.Webhooks.Update(ctx, app, args[0], &req)
			}, webhookTable)
		},
	}
	w.add(cmd)
	return cmd
}

func (c *cli) triggersListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list WEBHOOK_ID",
		Short: "List the triggers a webhook subscribes to",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			mc, app, err := c.webhookApp(cmd)
			if err != nil {
				return err
			}
			return showList(c, cmd, 0, func(ctx context.Context) iter.Seq2[*management.Trigger, error] {
				return single(mc.Webhooks.ListTriggers(ctx, app, args[0]))
			}, []string{"TRIGGER", "CATEGORY", "DESCRIPTION"}, func(t *management.Trigger) []string {
				return []string{string(t.ID), t.Category, t.Description}
			})
		},
	}
}

func (c *cli) triggersAddCmd() *cobra.Command {
	return &cobra.Command{
		Use:               "add WEBHOOK_ID TRIGGER...",
		Short:             "Subscribe a webhook to triggers, e.g. message_sent",
		Args:              minArgs(2),
		ValidArgsFunction: completeTriggers,
		RunE: func(cmd *cobra.Command, args []string) error {
			mc, app, err := c.webhookApp(cmd)
			if err != nil {
				return err
			}
			return showOne(c, cmd, func(ctx context.Context) (*map[string]chat.Result, error) {
				out, err := mc.Webhooks.AddTriggers(ctx, app, args[0], triggers(args[1:]))
				return &out, err
			}, func(t *table, r *map[string]chat.Result) {
				for _, id := range slices.Sorted(maps.Keys(*r)) {
					res := (*r)[id]
					status := "added"
					if !res.Success {
						status = "failed: " + res.Message
					}
					t.row(id, status)
				}
			})
		},
	}
}

func (c *cli) triggersRemoveCmd() *cobra.Command {
	return &cobra.Command{
		Use:               "remove WEBHOOK_ID TRIGGER...",
		Short:             "Unsubscribe a webhook from triggers",
		Args:              minArgs(2),
		ValidArgsFunction: completeTriggers,
		RunE: func(cmd *cobra.Command, args []string) error {
			mc, app, err := c.webhookApp(cmd)
			if err != nil {
				return err
			}
			return showOne(c, cmd, func(ctx context.Context) (*chat.Result, error) {
				return mc.Webhooks.RemoveTriggers(ctx, app, args[0], triggers(args[1:]))
			}, resultTable)
		},
	}
}

func triggers(ids []string) []webhook.Trigger {
	out := make([]webhook.Trigger, len(ids))
	for i, id := range ids {
		out[i] = webhook.Trigger(id)
	}
	return out
}

// completeTriggers completes trigger ids after the webhook's id.
func completeTriggers(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) == 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var ids []string
	for _, t := range webhook.Triggers() {
		if !slices.Contains(args[1:], string(t)) {
			ids = append(ids, string(t))
		}
	}
	return ids, cobra.ShellCompDirectiveNoFileComp
}

func webhookTable(t *table, w *management.Webhook) {
	t.row("id", w.ID)
	t.row("name", w.Name)
	t.row("url", shownURL(w.URL))
	t.row("enabled", yesNo(w.Enabled))
	t.row("retryOnFailure", yesNo(w.RetryOnFailure))
	t.row("useBasicAuth", yesNo(w.UseBasicAuth))
	t.row("username", w.Username)
	if w.Password != "" {
		t.row("password", "(set)")
	}
	t.row("createdAt", when(w.CreatedAt))
	t.row("updatedAt", when(w.UpdatedAt))
}

// shownURL is u with any password in it redacted.
func shownURL(u string) string {
	if p, err := url.Parse(u); err == nil && p.User != nil {
		return p.Redacted()
	}
	return u
}
