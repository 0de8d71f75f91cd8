package webhook_test

import (
	"github.com/chatrest/chat/webhook"
)

// Payloads of every trigger, built from the fields the reference lists for
// each (platform reference §14.4), with the types it shows: string
// numbers where it says so. They drive the decoding table and seed the
// fuzz target.

const userEntity = `{"uid":"cometchat-uid-1","name":"Andrew Joseph","avatar":"https://example.com/a.webp","status":"available","role":"default","lastActiveAt":1696934440}`

const messageSent = `{"message":{"id":"1","conversationId":"cometchat-uid-1_user_cometchat-uid-2","sender":"cometchat-uid-1",
"receiverType":"user","receiver":"cometchat-uid-2","category":"message","type":"text",
"data":{"text":"hi","metadata":{"k":"v"},"entities":{
 "sender":{"entity":` + userEntity + `,"entityType":"user"},
 "receiver":{"entity":{"uid":"cometchat-uid-2","name":"George Alan","status":"available","role":"default","conversationId":"cometchat-uid-1_user_cometchat-uid-2"},"entityType":"user"}}},
"sentAt":1696934912,"updatedAt":1696934912}}`

const messageEdited = `{"message":{"id":"3","conversationId":"cometchat-uid-1_user_cometchat-uid-2","sender":"cometchat-uid-1",
"receiverType":"user","receiver":"cometchat-uid-2","category":"action","type":"message",
"data":{"action":"edited","entities":{
 "by":{"entity":` + userEntity + `,"entityType":"user"},
 "on":{"entity":{"id":"2","conversationId":"cometchat-uid-1_user_cometchat-uid-2","sender":"cometchat-uid-1","receiverType":"user","receiver":"cometchat-uid-2","category":"message","type":"text","data":{"text":"hello, edited"},"sentAt":1696935000,"editedAt":1696935100,"editedBy":"cometchat-uid-1"},"entityType":"message"}}},
"sentAt":1696935100,"updatedAt":1696935100}}`

const messageDeleted = `{"message":{"id":"4","conversationId":"cometchat-uid-1_user_cometchat-uid-2","sender":"cometchat-uid-1",
"receiverType":"user","receiver":"cometchat-uid-2","category":"action","type":"message",
"data":{"action":"deleted","entities":{
 "by":{"entity":` + userEntity + `,"entityType":"user"},
 "on":{"entity":{"id":"2","conversationId":"cometchat-uid-1_user_cometchat-uid-2","deletedAt":1696935200,"deletedBy":"cometchat-uid-1"},"entityType":"message"}}},
"sentAt":1696935200,"updatedAt":1696935200}}`

const receipt = `{"receiver":"cometchat-uid-2","receiverType":"user","type":"receipts","sender":"cometchat-uid-2","messageSender":"cometchat-uid-1",
"body":{"action":"%s","messageId":"1","user":{"uid":"cometchat-uid-2","name":"George Alan","status":"available"},"timestamp":1696935300}}`

// botMessage is the data of a bot's after_message: the message itself.
const botMessage = `{"id":"712","conversationId":"cometchat-uid-1_user_cometchat-uid-2","sender":"cometchat-uid-1","receiverType":"user","receiver":"cometchat-uid-2",
"category":"message","type":"text","data":{"text":"hi","entities":{"sender":{"entity":` + userEntity + `,"entityType":"user"}}},"sentAt":1680125130,"updatedAt":1680125130}`

const reaction = `{"reaction":{"id":"7","messageId":"1","reaction":"😀","uid":"cometchat-uid-2","reactedAt":1696935400,"reactedBy":{"uid":"cometchat-uid-2","name":"George Alan"}}}`

const connection = `{"timestamp":1696935500123,"user":{"uid":"cometchat-uid-1","name":"Andrew Joseph","status":"offline","role":"default"},"status":"offline",
"currentConnection":{"action":"disconnected","platform":"javascript","connectedAt":1696935000456},"userPresenceChanged":true}`

const blocked = `{"users":{"cometchat-uid-2":{"uid":"cometchat-uid-2","name":"George Alan"}},"by":{"uid":"cometchat-uid-1","name":"Andrew Joseph"}}`

const mentioned = `{"message":{"id":"5","conversationId":"group_cometchat-guid-1","sender":"cometchat-uid-1","receiverType":"group","receiver":"cometchat-guid-1",
"category":"message","type":"text","data":{"text":"hi <@uid:cometchat-uid-2>","mentions":{"cometchat-uid-2":{"uid":"cometchat-uid-2","name":"George Alan"}}},
"sentAt":1696935600,"updatedAt":1696935600}}`

const groupFields = `"guid":"cometchat-guid-1","name":"Hiking Group","type":"public","membersCount":3,"conversationId":"group_cometchat-guid-1","createdAt":1696930000,"owner":"cometchat-uid-1"`

const groupCreated = `{"group":{` + groupFields + `,"scope":"admin","joinedAt":1696930000,"hasJoined":true},
"members":{"cometchat-uid-1":{"uid":"cometchat-uid-1","name":"Andrew Joseph","status":"available","role":"default","lastActiveAt":1696934440}}}`

const groupUpdated = `{"group":{` + groupFields + `,"updatedAt":1696936000,"updatedBy":"cometchat-uid-1","onlineMembersCount":2}}`

const ownerTransferred = `{"group":{` + groupFields + `,"updatedAt":1696936000,"updatedBy":"cometchat-uid-1","onlineMembersCount":2,"oldOwner":"cometchat-uid-9"}}`

const memberBy = `"by":{"uid":"cometchat-uid-1","name":"Andrew Joseph","avatar":"https://example.com/a.webp","status":"available","role":"default","lastActiveAt":1696934440}`

const membersChanged = `{"group":{` + groupFields + `},
"members":{"cometchat-uid-3":{"uid":"cometchat-uid-3","name":"Nancy Grace","avatar":"https://example.com/n.webp","status":"offline","role":"default","lastActiveAt":1696930001,"conversationId":"cometchat-uid-1_user_cometchat-uid-3"}},` + memberBy + `}`

const membersJoined = `{"group":{` + groupFields + `},"members":{"cometchat-uid-3":{"uid":"cometchat-uid-3","name":"Nancy Grace","status":"available","role":"default","lastActiveAt":1696930001}}}`

const scopeChanged = `{"group":{` + groupFields + `},
"members":{"cometchat-uid-3":{"uid":"cometchat-uid-3","name":"Nancy Grace","status":"available","role":"default","lastActiveAt":1696930001,"scope":"moderator","oldScope":"participant"}},` + memberBy + `}`

const callInitiated = `{"call":{"id":"52","conversationId":"cometchat-uid-1_user_cometchat-uid-5","sender":"cometchat-uid-1","receiverType":"user","receiver":"cometchat-uid-5",
"category":"call","type":"audio","data":{"action":"initiated","entities":{"by":{"entity":` + userEntity + `,"entityType":"user"}}},"sentAt":1696934692,"updatedAt":1696934692}}`

const sessionStarted = `{"created_at":1696934692,"sessionId":"v1.us.sess-1"}`

const participantJoined = `{"occupant":{"joined_at":1696934692,"audio_call":"false","name":"Andrew Joseph"},"sessionId":"v1.us.sess-1"}`

const participantLeft = `{"occupant":{"joined_at":1696934692,"audio_call":"true","left_at":1696934792,"name":"Andrew Joseph"},"sessionId":"v1.us.sess-1"}`

const sessionEnded = `{"all_occupants":[{"joined_at":1696934692,"audio_call":"false","left_at":1696934792,"name":"Andrew Joseph"},{"joined_at":1696934700,"audio_call":"true","left_at":1696934790,"name":"George Alan"}],
"destroyed_at":1696934800,"created_at":1696934690,"sessionId":"v1.us.sess-1"}`

const recording = `{"recordingDate":"2023-10-10","duration":"21.433000","startTime":"1696934692","sessionId":"v1.us.sess-1","recording_url":"https://example.com/rec.mp4"}`

const transcription = `{"sessionId":"v1.us.sess-1","tid":"t-1","transcriptDate":"2023-10-10T10:44:52Z","transcript_url":"https://example.com/t.txt","startTime":1696934692,"endTime":1696934800}`

const moderationMessage = `"message":{"id":"8","conversationId":"group_cometchat-guid-1","sender":"cometchat-uid-1","receiverType":"group","receiver":"cometchat-guid-1",
"category":"message","type":"text","data":{"text":"buy now","moderation":{"status":"%s"}},"sentAt":1696937000,"updatedAt":1696937000}`

const moderationEngine = `{` + moderationMessage + `}`

const moderationManual = `{` + moderationMessage + `,"moderation":[{"condition":{"id":"c1","isKeywordsReferencePresent":true,"isMediaPresent":false,
"entity":"message","operand":"text","category":"keyword","operator":"contains","value":["buy"],"message":"spam","_id":"65a1","similarityValue":0.8,
"disallowedSentences":[],"basicAuthEnabled":false,"prompts":[],"weight":1},
"rule":{"id":"rule-1","name":"No spam","revisionId":"rev-2","action":["blockMessage"],"blockedAt":1696937001}}],"reviewed":true}`

const moderationFailed = `{"resource":{"id":"9","conversationId":"group_cometchat-guid-1","sender":"cometchat-uid-1","receiverType":"group","receiver":"cometchat-guid-1","category":"message","type":"text","sentAt":1696937100},
"contentType":"text","outcome":"approved","completedAt":1696937105,
"failures":[{"timeoutMs":5000,"failedAt":"2023-10-10T11:25:05Z","category":"http_5xx","httpStatus":502,"errorMessage":"bad gateway","responseBody":"<html>","responseBodyTruncated":true,
"context":{"engine":"custom_api","setting":"approve-message","rule":{"id":"rule-2","name":"Custom check","revisionId":"rev-1"},
"condition":{"entity":"message","operand":"text","category":"custom","operator":"matches","message":"blocked","listId":"list-1","threshold":{"comparison":"gte","percent":80}},
"request":{"url":"https://moderation.example.com/check","method":"POST","bodyBytes":512,"basicAuthSent":true}}}]}`

const campaign = `{"campaignId":"camp-1","appId":"app-1","name":"Welcome Campaign","status":"%s","templateId":"tpl-1","templateVersion":1,
"totalTargets":100,"sentCount":98,"failedCount":2,"tag":"onboarding","scheduledAt":1696930000,"sentAt":1696932000,"completedAt":1696932060,"createdAt":1696929000,"updatedAt":1696932060}`

const notificationCreated = `{"notificationId":"n-1","appId":"app-1","templateId":"tpl-1","templateVersion":"2","category":"promo","label":"Promo","tags":["a","b"],
"sendMode":"batch","campaignId":"camp-1","priority":"high","channels":["in_app","push"],"dataType":"template","status":"dispatching",
"totalTargets":100,"sentCount":0,"failedCount":0,"createdAt":"2024-01-15T09:30:00.000Z"}`

const feedItem = `{"id":"f-1","appId":"app-1","notificationId":"n-1","campaignId":"camp-1","receiver":"cometchat-uid-2","templateId":"tpl-1","templateVersion":1,
"channelType":"in_app","channelId":"ch-1","templateCategory":"promo","categoryId":"cat-1","label":"Promo","tags":["a"],"alternativeText":"New offer",
"dataType":"template","status":"%s","sentAt":1696932000,"deliveredAt":1696932001,"readAt":null,"engagedAt":null,"interactedAt":null,
"variables":{"name":"George"},"metadata":{"k":1},"realtimeFanout":[],"content":{"title":"Hi"}}`

const pushNotification = `{"pushNotificationId":"p-1","appId":"app-1","notificationId":"n-1","campaignId":"camp-1","receiver":"cometchat-uid-2","templateId":"tpl-1","templateVersion":1,
"channelType":"push","channelId":"ch-2","category":"promo","label":"Promo","tags":["a"],"alternativeText":"New offer","dataType":"template",
"variables":{"name":"George"},"status":"%s","sentAt":1696932000,"deliveredAt":1696932000500,"clickedAt":null,"engagedAt":null,"failedAt":null,
"errorMessage":"","tag":"onboarding","metadata":{}}`

// envelope returns the body of a delivery of trigger with data.
func envelope(trigger webhook.Trigger, data string) string {
	typ := ""
	switch trigger {
	case webhook.TriggerCallInitiated, webhook.TriggerCallStarted, webhook.TriggerCallParticipantJoined,
		webhook.TriggerCallParticipantLeft, webhook.TriggerCallEnded:
		typ = `,"type":"call"`
	case webhook.TriggerMeetingStarted, webhook.TriggerMeetingParticipantJoined,
		webhook.TriggerMeetingParticipantLeft, webhook.TriggerMeetingEnded:
		typ = `,"type":"meet"`
	}
	return `{"trigger":"` + string(trigger) + `","data":` + data + `,"appId":"app-1","region":"us","webhook":"hook-1"` + typ + `}`
}
