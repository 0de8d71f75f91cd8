package main

import (
	"context"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/chatrest/chat"
	"github.com/spf13/cobra"
)

func (c *cli) membersListCmd() *cobra.Command {
	var (
		limit  int
		scopes []string
	)
	cmd := &cobra.Command{
		Use:   "list GUID",
		Short: "List a group's members",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			opts := &chat.ListMembersOptions{PageOptions: chat.PageOptions{PerPage: perPage(limit)}}
			for _, s := range scopes {
				opts.Scopes = append(opts.Scopes, chat.MemberScope(s))
			}
			return showList(c, cmd, limit, func(ctx context.Context) iter.Seq2[*chat.GroupMember, error] {
				return client.Members.All(ctx, args[0], opts)
			}, []string{"UID", "NAME", "SCOPE", "STATUS", "JOINED"}, func(m *chat.GroupMember) []string {
				return []string{m.UID, m.Name, string(m.Scope), string(m.Status), when(m.JoinedAt)}
			})
		},
	}
	addLimitFlag(cmd, &limit)
	cmd.Flags().StringSliceVar(&scopes, "scope", nil, "keep members with these scopes: admin, moderator, participant (repeat or separate with commas)")
	return cmd
}

func (c *cli) membersAddCmd() *cobra.Command {
	var scope string
	var ban bool
	cmd := &cobra.Command{
		Use:   "add GUID UID...",
		Short: "Add users to a group (or ban them with --ban)",
		Args:  minArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			req := &chat.AddMembersRequest{}
			uids := args[1:]
			switch {
			case ban:
				req.UsersToBan = uids
			case scope == string(chat.MemberParticipant):
				req.Participants = uids
			case scope == string(chat.MemberModerator):
				req.Moderators = uids
			case scope == string(chat.MemberAdmin):
				req.Admins = uids
			default:
				return usageErrorf("--scope must be participant, moderator or admin")
			}
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			return showOne(c, cmd, func(ctx context.Context) (*chat.AddMembersResponse, error) {
				return client.Members.Add(ctx, args[0], req)
			}, func(t *table, r *chat.AddMembersResponse) {
				for _, part := range []struct {
					scope   string
					results map[string]chat.MemberResult
				}{{"admin", r.Admins}, {"moderator", r.Moderators}, {"participant", r.Participants}, {"banned", r.UsersToBan}} {
					for _, uid := range slices.Sorted(maps.Keys(part.results)) {
						res := part.results[uid]
						status := "added as " + part.scope
						if part.scope == "banned" {
							status = "banned"
						}
						if !res.Success {
							status = "failed: " + strings.TrimSpace(res.Message)
						}
						t.row(uid, status)
					}
				}
			})
		},
	}
	cmd.Flags().StringVar(&scope, "scope", string(chat.MemberParticipant), "the members' scope: participant, moderator or admin")
	cmd.Flags().BoolVar(&ban, "ban", false, "ban the users from the group instead")
	return cmd
}

func (c *cli) membersScopeCmd() *cobra.Command {
	return &cobra.Command{
		Use:       "scope GUID UID SCOPE",
		Short:     "Change a member's scope (participant, moderator or admin)",
		Args:      exactArgs(3),
		ValidArgs: []string{"participant", "moderator", "admin"},
		RunE: func(cmd *cobra.Command, args []string) error {
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			return showOne(c, cmd, func(ctx context.Context) (*chat.ScopeChange, error) {
				return client.Members.ChangeScope(ctx, args[0], args[1], &chat.ChangeScopeRequest{Scope: chat.MemberScope(args[2])})
			}, func(t *table, s *chat.ScopeChange) {
				t.row("guid", s.GUID)
				t.row("uid", s.UID)
				t.row("scope", string(s.Scope))
			})
		},
	}
}
