package main

import (
	"context"
	"encoding/json"
	"iter"
	"strings"

	"github.com/chatrest/chat"
	"github.com/spf13/cobra"
)

func (c *cli) usersListCmd() *cobra.Command {
	var (
		limit       int
		opts        chat.ListUsersOptions
		deactivated string
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the app's users",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch deactivated {
			case "", "exclude":
			case "include":
				opts.WithDeactivated = true
			case "only":
				opts.OnlyDeactivated = true
			default:
				return usageErrorf("--deactivated must be exclude, include or only")
			}
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			opts.PerPage = perPage(limit)
			opts.WithTags = true
			return showList(c, cmd, limit, func(ctx context.Context) iter.Seq2[*chat.User, error] {
				return client.Users.All(ctx, &opts)
			}, []string{"UID", "NAME", "STATUS", "ROLE", "CREATED"}, func(u *chat.User) []string {
				return []string{u.UID, u.Name, string(u.Status), u.Role, when(u.CreatedAt)}
			})
		},
	}
	addLimitFlag(cmd, &limit)
	f := cmd.Flags()
	f.StringVar(&opts.SearchKey, "search", "", "keep users whose name or uid contains this text")
	f.StringVar(&opts.Status, "status", "", "keep users with this status: available or offline")
	f.StringSliceVar(&opts.Roles, "role", nil, "keep users with one of these roles (repeat or separate with commas)")
	f.StringSliceVar(&opts.Tags, "tag", nil, "keep users with one of these tags (repeat or separate with commas)")
	f.StringVar(&deactivated, "deactivated", "exclude", "deactivated users: exclude, include or only")
	return cmd
}

// userFlags are the flags of users create and update.
type userFlags struct {
	name, avatar, link, role, statusMessage, metadata string
	tags                                              []string
}

func (u *userFlags) add(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&u.name, "name", "", "the display name")
	f.StringVar(&u.avatar, "avatar", "", "the URL of the user's picture")
	f.StringVar(&u.link, "link", "", "the URL of the user's profile")
	f.StringVar(&u.role, "role", "", "the user's role")
	f.StringVar(&u.statusMessage, "status-message", "", "the user's status message")
	f.StringVar(&u.metadata, "metadata", "", "free-form JSON object about the user")
	f.StringSliceVar(&u.tags, "tag", nil, "a tag (repeat or separate with commas)")
}

func (c *cli) usersCreateCmd() *cobra.Command {
	var (
		u         userFlags
		withToken bool
	)
	cmd := &cobra.Command{
		Use:   "create UID --name NAME",
		Short: "Create a user",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			meta, err := jsonObjectFlag("--metadata", u.metadata)
			if err != nil {
				return err
			}
			if u.name == "" {
				return usageErrorf("--name is required")
			}
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			req := &chat.CreateUserRequest{UID: args[0], Name: u.name, Avatar: u.avatar, Link: u.link, Role: u.role,
				StatusMessage: u.statusMessage, Metadata: meta, Tags: u.tags, WithAuthToken: withToken}
			return showOne(c, cmd, func(ctx context.Context) (*chat.User, error) {
				return client.Users.Create(ctx, req)
			}, userTable)
		},
	}
	u.add(cmd)
	cmd.Flags().BoolVar(&withToken, "with-auth-token", false, "also mint an auth token for the user, and show it")
	return cmd
}

func (c *cli) usersUpdateCmd() *cobra.Command {
	var (
		u     userFlags
		unset []string
	)
	cmd := &cobra.Command{
		Use:   "update UID",
		Short: "Change a user's details",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			meta, err := jsonObjectFlag("--metadata", u.metadata)
			if err != nil {
				return err
			}
			req := &chat.UpdateUserRequest{Name: u.name, Avatar: u.avatar, Link: u.link, Role: u.role,
				StatusMessage: u.statusMessage, Metadata: meta, Tags: u.tags, Unset: unset}
			if !anyFlagChanged(cmd, "name", "avatar", "link", "role", "status-message", "metadata", "tag", "unset") {
				return usageErrorf("nothing to change: give at least one of --name, --avatar, --link, --role, --status-message, --metadata, --tag, --unset")
			}
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			return showOne(c, cmd, func(ctx context.Context) (*chat.User, error) {
				return client.Users.Update(ctx, args[0], req)
			}, userTable)
		},
	}
	u.add(cmd)
	cmd.Flags().StringSliceVar(&unset, "unset", nil, "remove these fields: avatar, link, metadata, statusMessage (repeat or separate with commas)")
	return cmd
}

func (c *cli) usersDeleteCmd() *cobra.Command {
	var permanent bool
	cmd := &cobra.Command{
		Use:   "delete UID",
		Short: "Delete a user",
		Long:  "Delete a user. Without --permanent the user is deactivated: their uid stays taken, their messages stay, and reactivate undoes it.",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			return showOne(c, cmd, func(ctx context.Context) (*chat.DeleteUserResponse, error) {
				return client.Users.Delete(ctx, args[0], &chat.DeleteUserRequest{Permanent: permanent})
			}, func(t *table, r *chat.DeleteUserResponse) {
				resultTable(t, &r.Result)
				if !permanent {
					deactivateTable(t, &r.DeactivateUsersResponse)
				}
			})
		},
	}
	cmd.Flags().BoolVar(&permanent, "permanent", false, "delete the user and their data for good")
	return cmd
}

func (c *cli) usersDeactivateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "deactivate UID...",
		Short: "Deactivate users: they can no longer log in",
		Args:  minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			return showOne(c, cmd, func(ctx context.Context) (*chat.DeactivateUsersResponse, error) {
				return client.Users.Deactivate(ctx, &chat.DeactivateUsersRequest{UIDs: args})
			}, deactivateTable)
		},
	}
}

func (c *cli) usersReactivateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "reactivate UID...",
		Short: "Reactivate deactivated users",
		Args:  minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			return showOne(c, cmd, func(ctx context.Context) (*chat.ReactivateUsersResponse, error) {
				return client.Users.Reactivate(ctx, &chat.ReactivateUsersRequest{UIDs: args})
			}, func(t *table, r *chat.ReactivateUsersResponse) {
				t.row("reactivated", strings.Join(r.ReactivatedUIDs, ", "))
				t.row("not deactivated", strings.Join(r.NonDeactivatedUIDs, ", "))
				t.row("not found", strings.Join(r.NotFound, ", "))
			})
		},
	}
}

func userTable(t *table, u *chat.User) {
	t.row("uid", u.UID)
	t.row("name", u.Name)
	t.row("status", string(u.Status))
	t.row("statusMessage", u.StatusMessage)
	t.row("role", u.Role)
	t.row("avatar", u.Avatar)
	t.row("link", u.Link)
	t.row("tags", strings.Join(u.Tags, ", "))
	t.row("metadata", jsonText(u.Metadata))
	t.row("createdAt", when(u.CreatedAt))
	t.row("updatedAt", when(u.UpdatedAt))
	t.row("lastActiveAt", when(u.LastActiveAt))
	if u.AuthToken != "" {
		t.row("authToken", string(u.AuthToken))
	}
}

// deactivateTable shows what became of each uid a deactivation named.
func deactivateTable(t *table, r *chat.DeactivateUsersResponse) {
	t.row("deactivated", strings.Join(r.DeactivatedUIDs, ", "))
	t.row("already deactivated", strings.Join(r.AlreadyDeactivatedUIDs, ", "))
	t.row("not found", strings.Join(r.NotFound, ", "))
}

func resultTable(t *table, r *chat.Result) {
	t.row("success", yesNo(r.Success))
	t.row("message", r.Message)
}

// jsonObjectFlag decodes a flag's JSON object; "" is none.
func jsonObjectFlag(name, value string) (map[string]any, error) {
	if value == "" {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(value), &m); err != nil || m == nil {
		return nil, usageErrorf("%s must be a JSON object, e.g. '{\"plan\":\"pro\"}'", name)
	}
	return m, nil
}

// anyFlagChanged reports whether one of the flags was given.
func anyFlagChanged(cmd *cobra.Command, names ...string) bool {
	for _, n := range names {
		if cmd.Flags().Changed(n) {
			return true
		}
	}
	return false
}
