// Package webhook receives the deliveries of the chat platform's webhooks:
// it checks them (method, size, HTTP Basic auth in constant time) and
// decodes their envelope into typed events.
package webhook
