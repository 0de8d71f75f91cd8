package main

import (
	"context"
	"iter"
	"unicode/utf8"

	"github.com/chatrest/chat"
	"github.com/spf13/cobra"
)

func (c *cli) messagesSendCmd() *cobra.Command {
	var (
		as, to, text, thread, metadata string
		group                          bool
		tags                           []string
	)
	cmd := &cobra.Command{
		Use:   "send --as SENDER --to RECEIVER [--group] --text TEXT [--thread PARENT_ID]",
		Short: "Send a text message, or a reply in a thread, on a user's behalf",
		Long: `Send a text message from the user SENDER to the user RECEIVER, or to the group
RECEIVER with --group. With --thread it is a reply in the thread of the message
PARENT_ID (the receiver is the parent's conversation).`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case as == "":
				return usageErrorf("--as is required: the sending user")
			case to == "":
				return usageErrorf("--to is required: the receiving user, or group with --group")
			case text == "":
				return usageErrorf("--text is required")
			}
			meta, err := jsonObjectFlag("--metadata", metadata)
			if err != nil {
				return err
			}
			req := &chat.SendMessageRequest{Receiver: to, ReceiverType: chat.ReceiverUser, Category: chat.CategoryMessage,
				Type: chat.MessageTypeText, Data: chat.MessageData{Text: text, Metadata: meta}, Tags: tags}
			if group {
				req.ReceiverType = chat.ReceiverGroup
			}
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			return showOne(c, cmd, func(ctx context.Context) (*chat.Message, error) {
				if thread != "" {
					return client.Messages.SendThread(ctx, thread, as, req)
				}
				return client.Messages.Send(ctx, req, chat.OnBehalfOf(as))
			}, messageColumns)
		},
	}
	f := cmd.Flags()
	f.StringVar(&as, "as", "", "the sending user's uid")
	f.StringVar(&to, "to", "", "the receiving user's uid, or group's guid with --group")
	f.BoolVar(&group, "group", false, "the receiver is a group")
	f.StringVar(&text, "text", "", "the message's text")
	f.StringVar(&thread, "thread", "", "reply in the thread of this message id")
	f.StringVar(&metadata, "metadata", "", "free-form JSON object about the message")
	f.StringSliceVar(&tags, "tag", nil, "a tag (repeat or separate with commas)")
	return cmd
}

func (c *cli) messagesListCmd() *cobra.Command {
	var (
		limit               int
		as, with, group, th string
		before              bool
	)
	cmd := &cobra.Command{
		Use:   "list (--with UID --as UID | --group GUID | --thread ID)",
		Short: "List a conversation's messages, or a thread's replies",
		Long: `List the messages between the user --as and the user --with, the messages of the
group --group (as the member --as, when given), or the replies in the thread of
the message --thread: oldest first, or newest first with --newest-first.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			given := 0
			for _, v := range []string{with, group, th} {
				if v != "" {
					given++
				}
			}
			if given != 1 {
				return usageErrorf("give one of --with, --group and --thread")
			}
			if with != "" && as == "" {
				return usageErrorf("--with needs --as: the conversation between --as and --with")
			}
			client, err := c.chatClient(cmd)
			if err != nil {
				return err
			}
			cursor := chat.CursorOptions{Limit: perPage(limit)}
			if before {
				cursor.Direction = chat.DirectionBefore
			}
			var opts []chat.RequestOption
			if as != "" {
				opts = append(opts, chat.OnBehalfOf(as))
			}
			walk := func(ctx context.Context) iter.Seq2[*chat.Message, error] {
				switch {
				case with != "":
					return client.Messages.AllUserMessages(ctx, with, &chat.ListUserMessagesOptions{CursorOptions: cursor}, opts...)
				case group != "":
					return client.Messages.AllGroupMessages(ctx, group, &chat.ListGroupMessagesOptions{CursorOptions: cursor}, opts...)
				}
				return client.Messages.AllThreadMessages(ctx, th, &chat.ListThreadOptions{CursorOptions: cursor}, opts...)
			}
			return showList(c, cmd, limit, walk, []string{"ID", "SENT", "SENDER", "RECEIVER", "TYPE", "REPLIES", "TEXT"}, func(m *chat.Message) []string {
				return []string{m.ID, when(m.SentAt), m.Sender, m.Receiver, string(m.Type), itoa(m.ReplyCount), short(m.Data.Text, 60)}
			})
		},
	}
	addLimitFlag(cmd, &limit)
	f := cmd.Flags()
	f.StringVar(&as, "as", "", "the user whose view to list")
	f.StringVar(&with, "with", "", "list the conversation with this user")
	f.StringVar(&group, "group", "", "list the messages of this group")
	f.StringVar(&th, "thread", "", "list the replies in the thread of this message id")
	f.BoolVar(&before, "newest-first", false, "list from the newest message back")
	return cmd
}

// short cuts s to at most n characters, marking the cut.
func short(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
