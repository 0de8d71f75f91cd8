package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chatrest/chat/webhook"
	"github.com/spf13/cobra"
)

// webhooksTriggerCmd delivers a trigger's body to a receiver, as the
// service would.
func (c *cli) webhooksTriggerCmd() *cobra.Command {
	var (
		to, username, webhookID string
		passwordStdin           bool
	)
	cmd := &cobra.Command{
		Use:   "trigger TRIGGER --to URL [--username USER --password-stdin]",
		Short: "Deliver a trigger's event to a webhook receiver, shaped as the service sends it",
		Long: `Deliver to URL the POST the service makes when TRIGGER fires: the envelope
{"trigger", "data", "appId", "region", "webhook"} with a body of that trigger's
shape (a message for message_sent, a group and its members for group_*, ...),
and HTTP Basic auth when --username is given (the password from standard input
with --password-stdin), as a webhook with useBasicAuth delivers.

The receiver's answer is shown; the exit status is 0 when it answered 2xx,
1 otherwise. URL is https, or http on a loopback address (a receiver on this
machine); --ca-file's certificates are trusted beside the system's.

The triggers: ` + strings.Join(triggerNames(), ", ") + `.`,
		Example: `  chat webhooks trigger message_sent --to http://localhost:8080/hooks
  printf '%s\n' "$HOOK_PASSWORD" | chat webhooks trigger group_member_joined \
      --to https://hooks.example.com/chat --username hooks --password-stdin`,
		Args:              exactArgs(1),
		ValidArgsFunction: completeTrigger,
		RunE: func(cmd *cobra.Command, args []string) error {
			trigger := webhook.Trigger(args[0])
			if !slices.Contains(webhook.Triggers(), trigger) {
				return usageErrorf("unknown trigger %q; the triggers are %s", args[0], strings.Join(triggerNames(), ", "))
			}
			if to == "" {
				return usageErrorf("--to is required: the receiver's URL")
			}
			u, err := url.Parse(to)
			switch {
			case err != nil || u.Host == "":
				return usageErrorf("--to %q is not an absolute URL", to)
			case u.Scheme == "http" && !isLoopback(u.Hostname()):
				return usageErrorf("--to %q: plain http only to a loopback address; use https", to)
			case u.Scheme != "http" && u.Scheme != "https":
				return usageErrorf("--to %q: give an https URL", to)
			}
			if passwordStdin && username == "" {
				return usageErrorf("--password-stdin needs --username")
			}
			pw, err := c.password(passwordStdin)
			if err != nil {
				return err
			}
			s, err := c.resolveSettings(cmd)
			if err != nil {
				return err
			}
			env, err := webhook.NewEnvelope(trigger, sampleData(trigger, time.Now()))
			if err != nil {
				return err
			}
			env.AppID, env.Region, env.Webhook = cmpOr(s.AppID, "app"), cmpOr(s.Region, "us"), webhookID
			req, err := webhook.NewRequest(cmd.Context(), to, env, username, pw)
			if err != nil {
				return err
			}
			req.Header.Set("User-Agent", "chat-cli/"+version()+" (webhooks trigger)")
			hc, err := c.receiverClient(s)
			if err != nil {
				return err
			}
			resp, err := hc.Do(req)
			if err != nil {
				return fmt.Errorf("delivering %s to %s: %w", trigger, u.Redacted(), err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			if err != nil {
				return fmt.Errorf("reading the receiver's answer: %w", err)
			}
			fmt.Fprintf(c.stdout, "%s %s\n", resp.Proto, resp.Status)
			if len(body) > 0 {
				c.stdout.Write(body)
				if body[len(body)-1] != '\n' {
					io.WriteString(c.stdout, "\n")
				}
			}
			if resp.StatusCode/100 != 2 {
				return &exitError{code: exitAPI, err: fmt.Errorf("the receiver answered %s to %s", resp.Status, trigger)}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&to, "to", "", "the receiver's URL")
	f.StringVar(&username, "username", "", "the Basic auth user name the webhook delivers with")
	f.BoolVar(&passwordStdin, "password-stdin", false, "read the Basic auth password from standard input")
	f.StringVar(&webhookID, "webhook", "cli-trigger", "the webhook id the envelope names")
	return cmd
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// receiverClient is the HTTP client of a delivery: the CA file's
// certificates trusted beside the system's, no redirect followed (as the
// service's deliveries).
func (c *cli) receiverClient(s *settings) (*http.Client, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if err := trustCAFile(tr, s.CAFile); err != nil {
		return nil, err
	}
	return &http.Client{
		Transport: tr,
		Timeout:   c.timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}, nil
}

func triggerNames() []string {
	var out []string
	for _, t := range webhook.Triggers() {
		out = append(out, string(t))
	}
	return out
}

func completeTrigger(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return triggerNames(), cobra.ShellCompDirectiveNoFileComp
}

// sampleData returns the data of a delivery of trigger at now, shaped as
// the service's deliveries of it are.
func sampleData(trigger webhook.Trigger, now time.Time) []byte {
	sec := strconv.FormatInt(now.Unix(), 10)
	ms := strconv.FormatInt(now.UnixMilli(), 10)
	iso := strconv.Quote(now.UTC().Format(time.RFC3339))
	r := strings.NewReplacer("$SEC", sec, "$MS", ms, "$ISO", iso, "$TRIGGER", string(trigger))
	t := string(trigger)
	var tmpl string
	switch {
	case t == "message_sent":
		tmpl = `{"message":` + sampleMessage + `}`
	case t == "message_edited" || t == "message_deleted":
		action := strings.TrimPrefix(t, "message_")
		tmpl = `{"message":{"id":"1002","conversationId":"alice_user_bob","sender":"alice","receiverType":"user","receiver":"bob","category":"action","type":"message",` +
			`"data":{"action":"` + action + `","entities":{"by":{"entity":` + sampleUser("alice", "Alice") + `,"entityType":"user"},` +
			`"on":{"entity":{"id":"1001","conversationId":"alice_user_bob","sender":"alice","receiver":"bob","receiverType":"user","type":"text","category":"message","data":{"text":"hello"},"` + action + `At":$SEC,"` + action + `By":"alice"},"entityType":"message"}}},"sentAt":$SEC,"updatedAt":$SEC}}`
	case strings.HasPrefix(t, "message_reaction_"):
		tmpl = `{"reaction":{"id":"31","messageId":"1001","reaction":"👍","uid":"bob","reactedAt":$SEC,"reactedBy":` + sampleUser("bob", "Bob") + `}}`
	case t == "message_delivery_receipt" || t == "message_read_receipt" || t == "message_delivered_to_all" || t == "message_read_by_all":
		action := map[string]string{"message_delivery_receipt": "delivered", "message_read_receipt": "read",
			"message_delivered_to_all": "deliveredToAll", "message_read_by_all": "readByAll"}[t]
		tmpl = `{"receiver":"alice","receiverType":"user","type":"receipts","sender":"bob","messageSender":"alice",` +
			`"body":{"action":"` + action + `","messageId":"1001","user":` + sampleUser("bob", "Bob") + `,"timestamp":$SEC}}`
	case t == "user_blocked" || t == "user_unblocked":
		tmpl = `{"users":{"bob":` + sampleUser("bob", "Bob") + `},"by":` + sampleUser("alice", "Alice") + `}`
	case t == "user_connection_status_changed":
		tmpl = `{"timestamp":$MS,"user":` + sampleUser("alice", "Alice") + `,"status":"available",` +
			`"currentConnection":{"action":"connected","platform":"javascript","connectedAt":$MS,"appInfo":{"version":"4.0.11","apiVersion":"3.0","origin":"https://app.example.com","uts":$MS,"clientIp":"203.0.113.7"},"userAgent":"Mozilla/5.0"},"userPresenceChanged":true}`
	case strings.HasPrefix(t, "group_"):
		tmpl = `{"group":{"guid":"team","name":"Team","type":"public","owner":"alice","membersCount":2,"createdAt":$SEC,"conversationId":"group_team","onlineMembersCount":1` +
			map[bool]string{true: `,"oldOwner":"bob"`}[t == "group_owner_transferred"] + `},` +
			`"members":{"bob":{"uid":"bob","name":"Bob","status":"offline","role":"default","scope":"participant","joinedAt":$SEC` +
			map[bool]string{true: `,"oldScope":"participant","scope":"moderator"`}[t == "group_member_scope_changed"] + `}},` +
			`"by":` + sampleUser("alice", "Alice") + `}`
	case t == "call_initiated":
		tmpl = `{"call":{"id":"1003","conversationId":"alice_user_bob","sender":"alice","receiverType":"user","receiver":"bob","category":"call","type":"audio",` +
			`"data":{"action":"initiated","entities":{"by":{"entity":` + sampleUser("alice", "Alice") + `,"entityType":"user"},"for":{"entity":` + sampleUser("bob", "Bob") + `,"entityType":"user"},` +
			`"on":{"entity":{"sessionid":"v1.us.app.$SEC","status":"initiated","type":"audio","initiatedAt":$SEC},"entityType":"call"}}},"sentAt":$SEC,"updatedAt":$SEC}}`
	case t == "call_started" || t == "meeting_started":
		tmpl = `{"sessionId":"v1.us.app.$SEC","created_at":$SEC}`
	case strings.HasSuffix(t, "_participant_joined"):
		tmpl = `{"occupant":{"joined_at":$SEC,"audio_call":"false","name":"Alice"},"initial_config":{"is_audio_muted":"false","is_video_muted":"true","is_audio_only":"false","mode":"DEFAULT","sdk":"javascript","platform":"web","call_version":"v2","start_recording_on_call_start":"false"},"sessionId":"v1.us.app.$SEC"}`
	case strings.HasSuffix(t, "_participant_left"):
		tmpl = `{"occupant":{"joined_at":$SEC,"left_at":$SEC,"audio_call":"false","name":"Alice"},"sessionId":"v1.us.app.$SEC"}`
	case t == "call_ended" || t == "meeting_ended":
		tmpl = `{"sessionId":"v1.us.app.$SEC","all_occupants":[{"joined_at":$SEC,"left_at":$SEC,"audio_call":"false","name":"Alice"}],"created_at":$SEC,"destroyed_at":$SEC}`
	case t == "recording_generated":
		tmpl = `{"sessionId":"v1.us.app.$SEC","recording_url":"https://recordings.example.com/v1.us.app.$SEC.mp4","recordingDate":"2024-06-19","duration":"21.433000","startTime":$SEC}`
	case t == "transcription_generated":
		tmpl = `{"sessionId":"v1.us.app.$SEC","tid":"t-1","transcript_url":"https://recordings.example.com/v1.us.app.$SEC.txt","transcriptDate":"2024-06-19","startTime":$MS,"endTime":$MS}`
	case t == "moderation_engine_failed":
		tmpl = `{"resource":` + sampleMessage + `,"contentType":"text","outcome":"approved","completedAt":$ISO,` +
			`"failures":[{"category":"timeout","httpStatus":0,"errorMessage":"the engine did not answer in time","responseBody":"","responseBodyTruncated":false,"timeoutMs":5000,"failedAt":$ISO,` +
			`"context":{"engine":"custom-api","setting":"custom","rule":{"id":"custom-check","name":"Custom check"},"condition":{"entity":"message","operand":"text","operator":"matches"},` +
			`"request":{"url":"https://moderation.example.com/check","method":"POST","bodyBytes":512,"basicAuthSent":false}}}]}`
	case strings.HasPrefix(t, "moderation_"):
		status := map[string]string{"moderation_engine_approved": "approved", "moderation_engine_blocked": "disapproved", "moderation_manual_approved": "approved"}[t]
		tmpl = `{"message":{"id":"1001","conversationId":"group_team","sender":"alice","receiverType":"group","receiver":"team","category":"message","type":"text",` +
			`"data":{"text":"See you at noon","moderation":{"status":"` + status + `"}},"sentAt":$SEC,"updatedAt":$SEC},` +
			`"moderation":[{"filter":{"entity":"user","operand":"role","operator":"equals","value":"trusted","type":"sender","_id":"6672f0c1e4b0a1d2c3e4f5a6"},"rule":{"id":"trusted-senders","name":"Trusted senders","revisionId":"rev-3","action":["approveMessage"]}}]` +
			map[bool]string{true: `,"reviewed":true`}[t == "moderation_manual_approved"] + `}`
	case strings.HasPrefix(t, "after_campaign_"):
		status := map[bool]string{true: "completed", false: "failed"}[t == "after_campaign_completed"]
		tmpl = `{"campaignId":"cmp-1","appId":"app","name":"Spring launch","status":"` + status + `","templateId":"tpl-1","templateVersion":1,"totalTargets":2,"sentCount":2,"failedCount":0,"tag":"launch",` +
			`"scheduledAt":$ISO,"sentAt":$ISO,"completedAt":$ISO,"createdAt":$ISO,"updatedAt":$ISO}`
	case t == "after_notification_created":
		tmpl = `{"notificationId":"ntf-1","appId":"app","templateId":"tpl-1","templateVersion":1,"category":"announcements","label":"Spring launch","tags":["launch"],"sendMode":"immediate",` +
			`"campaignId":"cmp-1","priority":"normal","channels":["push","feed"],"dataType":"template","status":"dispatching","totalTargets":2,"sentCount":0,"failedCount":0,"createdAt":$ISO}`
	case strings.HasPrefix(t, "after_feed_item_"):
		tmpl = `{"id":"feed-1","appId":"app","notificationId":"ntf-1","campaignId":"cmp-1","receiver":"bob","templateId":"tpl-1","templateVersion":1,"channelType":"feed","channelId":"default",` +
			`"templateCategory":"announcements","categoryId":"cat-1","label":"Spring launch","tags":["launch"],"alternativeText":"Spring is here","dataType":"template","status":"` +
			strings.TrimPrefix(t, "after_feed_item_") + `","sentAt":$ISO,"deliveredAt":$ISO,"readAt":null,"engagedAt":null,"interactedAt":null}`
	default: // after_push_notification_*
		tmpl = `{"pushNotificationId":"push-1","appId":"app","notificationId":"ntf-1","campaignId":"cmp-1","receiver":"bob","templateId":"tpl-1","templateVersion":1,"channelType":"push","channelId":"fcm",` +
			`"category":"announcements","label":"Spring launch","tags":["launch"],"tag":"launch","alternativeText":"Spring is here","dataType":"template","status":"` +
			strings.TrimPrefix(t, "after_push_notification_") + `","sentAt":$ISO,"deliveredAt":$ISO,"clickedAt":null,"engagedAt":null,"failedAt":null}`
	}
	return []byte(r.Replace(tmpl))
}

// sampleMessage is a text message as deliveries show one.
const sampleMessage = `{"id":"1001","conversationId":"alice_user_bob","sender":"alice","receiverType":"user","receiver":"bob","category":"message","type":"text",` +
	`"data":{"text":"hello","entities":{"sender":{"entity":{"uid":"alice","name":"Alice","status":"available","role":"default"},"entityType":"user"},` +
	`"receiver":{"entity":{"uid":"bob","name":"Bob","status":"offline","role":"default","conversationId":"alice_user_bob"},"entityType":"user"}}},"sentAt":$SEC,"updatedAt":$SEC}`

// sampleUser is a user as deliveries show one.
func sampleUser(uid, name string) string {
	return `{"uid":"` + uid + `","name":"` + name + `","status":"available","role":"default","createdAt":$SEC}`
}
