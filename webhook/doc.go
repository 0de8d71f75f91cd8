// Package webhook receives the deliveries of the chat platform's webhooks
// and turns them into typed events.
//
// A webhook (set up with the management package, or in the dashboard)
// POSTs a JSON [Envelope] to its URL each time one of its triggers fires:
// the trigger id, the trigger's data, and the app, region and webhook it is
// for. The service expects an immediate 200 OK; with retryOnFailure set, it
// delivers again after any other answer.
//
// # Receiving
//
// [NewHandler] is an http.Handler that does the whole job: it checks the
// method, the HTTP Basic auth credentials (in constant time), the content
// type and the size of the body, decodes the delivery and calls your
// function with the event:
//
//	v := &webhook.Verifier{Username: os.Getenv("HOOK_USER"), Password: os.Getenv("HOOK_PASSWORD")}
//	http.Handle("POST /chat-events", webhook.NewHandler(v, func(ctx context.Context, ev webhook.Event) error {
//		switch ev := ev.(type) {
//		case *webhook.MessageEvent:
//			log.Printf("%s said %q", ev.Message.Sender, ev.Message.Data.Text)
//		case *webhook.GroupEvent:
//			log.Printf("%s: %s", ev.Trigger(), ev.Group.GUID)
//		}
//		return nil // an error answers 500, so the service retries
//	}))
//
// Basic auth is the only authentication deliveries carry (there is no
// signature header): give the webhook useBasicAuth, a
// username and a password, and the [Verifier] the same. A Verifier without
// a Username rejects everything unless Unauthenticated is set.
//
// With another router or framework, call [Verifier.Verify] on the request
// and answer [StatusCode] of its error; with a body already read, call
// [Decode].
//
// # Events
//
// Each of the 48 triggers ([Triggers]), user_mentioned, and a bot's
// after_message decode to the event type of their payload's shape:
// [MessageEvent], [MessageActionEvent], [ReceiptEvent], [ReactionEvent],
// [UserConnectionEvent], [BlockEvent], [GroupEvent], [CallEvent],
// [SessionStartedEvent], [ParticipantEvent], [SessionEndedEvent],
// [RecordingEvent], [TranscriptionEvent], [ModerationEvent],
// [ModerationFailedEvent], [CampaignEvent], [NotificationCreatedEvent],
// [FeedItemEvent], [PushNotificationEvent] and [BotMessageEvent]. They use
// the chat package's models (chat.Message, chat.User, chat.Group,
// chat.Reaction) where the payload carries them. A trigger this package
// does not know becomes an [UnknownEvent] rather than an error.
//
// Nothing the service sends is lost: every event keeps its envelope in
// Envelope(), the whole body in the envelope's Raw, and its data as sent
// in its own Raw, so a member the service adds after this release can be
// read from them.
//
// Decoding is lenient where the service is inconsistent: numbers sent as
// strings ("duration": "21.433000", "audio_call": "true") decode into
// numbers and booleans, and times come as Unix seconds ([chat.Timestamp]),
// milliseconds ([Millis]) or, where payloads vary, either or an ISO-8601
// string ([Time]).
//
// # Testing a receiver
//
// [NewDelivery] builds the request the service would send, Basic auth
// included, in one call; [NewEnvelope] and [NewRequest] do it in two steps,
// and [DecodeEnvelope] turns an envelope into its typed event for testing
// the function you give NewHandler directly.
package webhook
