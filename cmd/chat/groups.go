package main

import (
	"context"
	"iter"
	"strings"

	"github.com/chatrest/chat"
	"github.com/spf13/cobra"
)

func (c *cli) groupsListCmd() *cobra.Command {
	var (
		limit int
		opts  chat.ListGroupsOptions
		types []string
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the app's groups",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			for _, t := range types {
				opts.Types = append(opts.Types, chat.GroupType(t))
			}
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			opts.PerPage = perPage(limit)
			opts.WithTags = true
			return showList(c, cmd, limit, func(ctx context.Context) iter.Seq2[*chat.Group, error] {
				return client.Groups.All(ctx, &opts)
			}, []string{"GUID", "NAME", "TYPE", "MEMBERS", "OWNER", "CREATED"}, func(g *chat.Group) []string {
				return []string{g.GUID, g.Name, string(g.Type), itoa(g.MembersCount), g.Owner, when(g.CreatedAt)}
			})
		},
	}
	addLimitFlag(cmd, &limit)
	f := cmd.Flags()
	f.StringVar(&opts.SearchKey, "search", "", "keep groups whose name or guid contains this text")
	f.StringSliceVar(&types, "type", nil, "keep groups of these types: public, password, private (repeat or separate with commas)")
	f.StringSliceVar(&opts.Tags, "tag", nil, "keep groups with one of these tags (repeat or separate with commas)")
	return cmd
}

// groupFlags are the flags of groups create and update.
type groupFlags struct {
	name, typ, password, icon, description, owner, metadata string
	tags                                                    []string
	passwordStdin                                           bool
}

// readPassword takes the password of --password-stdin, which other users
// of the machine cannot see in the process list as they can --password's.
func (g *groupFlags) readPassword(c *cli) error {
	if !g.passwordStdin {
		c.hidePassword(g.password)
		return nil
	}
	if g.password != "" {
		return usageErrorf("give the password with --password or --password-stdin, not both")
	}
	pw, err := c.password(true)
	g.password = pw
	return err
}

func (g *groupFlags) add(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&g.name, "name", "", "the display name")
	f.StringVar(&g.typ, "type", "", "public, password or private")
	f.StringVar(&g.password, "password", "", "the password of a password group (visible in the process list: prefer --password-stdin)")
	f.BoolVar(&g.passwordStdin, "password-stdin", false, "read the password of a password group from standard input")
	f.StringVar(&g.icon, "icon", "", "the URL of the group's picture")
	f.StringVar(&g.description, "description", "", "the group's description")
	f.StringVar(&g.owner, "owner", "", "the owner's uid")
	f.StringVar(&g.metadata, "metadata", "", "free-form JSON object about the group")
	f.StringSliceVar(&g.tags, "tag", nil, "a tag (repeat or separate with commas)")
}

func (c *cli) groupsCreateCmd() *cobra.Command {
	var g groupFlags
	cmd := &cobra.Command{
		Use:   "create GUID --name NAME --type TYPE",
		Short: "Create a group",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.readPassword(c); err != nil {
				return err
			}
			meta, err := jsonObjectFlag("--metadata", g.metadata)
			if err != nil {
				return err
			}
			if g.name == "" {
				return usageErrorf("--name is required")
			}
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			req := &chat.CreateGroupRequest{GUID: args[0], Name: g.name, Type: chat.GroupType(g.typ), Password: chat.Secret(g.password),
				Icon: g.icon, Description: g.description, Owner: g.owner, Metadata: meta, Tags: g.tags}
			return showOne(c, cmd, func(ctx context.Context) (*chat.Group, error) {
				return client.Groups.Create(ctx, req)
			}, groupTable)
		},
	}
	g.add(cmd)
	return cmd
}

func (c *cli) groupsUpdateCmd() *cobra.Command {
	var (
		g     groupFlags
		unset []string
	)
	cmd := &cobra.Command{
		Use:   "update GUID",
		Short: "Change a group's details",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.readPassword(c); err != nil {
				return err
			}
			meta, err := jsonObjectFlag("--metadata", g.metadata)
			if err != nil {
				return err
			}
			if !anyFlagChanged(cmd, "name", "type", "password", "password-stdin", "icon", "description", "owner", "metadata", "tag", "unset") {
				return usageErrorf("nothing to change: give at least one of --name, --type, --password, --password-stdin, --icon, --description, --owner, --metadata, --tag, --unset")
			}
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			req := &chat.UpdateGroupRequest{Name: g.name, Type: chat.GroupType(g.typ), Password: chat.Secret(g.password),
				Icon: g.icon, Description: g.description, Owner: g.owner, Metadata: meta, Tags: g.tags, Unset: unset}
			return showOne(c, cmd, func(ctx context.Context) (*chat.Group, error) {
				return client.Groups.Update(ctx, args[0], req)
			}, groupTable)
		},
	}
	g.add(cmd)
	cmd.Flags().StringSliceVar(&unset, "unset", nil, "remove these fields: icon, description, metadata (repeat or separate with commas)")
	return cmd
}

func groupTable(t *table, g *chat.Group) {
	t.row("guid", g.GUID)
	t.row("name", g.Name)
	t.row("type", string(g.Type))
	t.row("description", g.Description)
	t.row("icon", g.Icon)
	t.row("owner", g.Owner)
	t.row("membersCount", itoa(g.MembersCount))
	t.row("conversationId", g.ConversationID)
	t.row("tags", strings.Join(g.Tags, ", "))
	t.row("metadata", jsonText(g.Metadata))
	t.row("createdAt", when(g.CreatedAt))
	t.row("updatedAt", when(g.UpdatedAt))
}
