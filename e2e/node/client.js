// client.js runs one user's session of the platform's official JavaScript
// client SDK under Node, for the end-to-end tests of chattest. The Go test
// sends it one JSON command per line on stdin, {"id", "op", ...}; it answers
// each on stdout with {"id", "result"} or {"id", "error"}, and reports what
// the SDK's listeners receive, as it happens, as {"event", ...} lines.
//
// Usage: node client.js APP_ID HOST:PORT
// (Node must trust chattest's certificate: NODE_EXTRA_CA_CERTS=cert.pem.)

// The SDK is written for browsers. Under Node it needs, and gets here:
globalThis.window = globalThis; // its bundle registers itself on window
globalThis.navigator ??= { userAgent: 'node', platform: 'node', language: 'en' }; // read at login
globalThis.location ??= new URL('http://localhost/'); // its origin, sent at login
globalThis.document ??= { querySelector: () => null }; // it sniffs the page's framework
globalThis.screen ??= { width: 0, height: 0 }; // it reports the session's device
globalThis.matchMedia ??= () => ({ matches: false }); // and its orientation
const memory = new Map(); // where it keeps the session: in memory, one per process
globalThis.localStorage ??= {
  getItem: (k) => (memory.has(k) ? memory.get(k) : null),
  setItem: (k, v) => memory.set(k, String(v)),
  removeItem: (k) => memory.delete(k),
  clear: () => memory.clear(),
  key: (i) => [...memory.keys()][i] ?? null,
  get length() { return memory.size; },
};
// It passes fetch a referrer of "no-referrer", which a page resolves
// against its own URL and Node cannot: leave it out.
const nodeFetch = globalThis.fetch;
globalThis.fetch = (url, { referrer, ...init } = {}) => nodeFetch(url, init);
// Node has a WebSocket of its own from version 22 on; before, the ws package.
globalThis.WebSocket ??= require('ws').WebSocket;

const { CometChat } = require('@cometchat/chat-sdk-javascript');
const fs = require('node:fs');
const readline = require('node:readline');

const [appId, host] = process.argv.slice(2);
// Written synchronously, so that nothing is lost when the process exits
// (a full pipe is waited for).
const emit = (line) => {
  const b = Buffer.from(JSON.stringify(line) + '\n');
  for (let off = 0; off < b.length;) {
    try {
      off += fs.writeSync(1, b, off);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
};
// An error the SDK throws in a listener ends the process: report it as an
// event, shorter than Node's report, which quotes the whole minified bundle.
const crash = (e) => {
  emit({ event: 'crash', stack: String(e && e.stack ? e.stack : e).slice(0, 2000) });
  process.exit(1);
};
process.on('uncaughtException', crash).on('unhandledRejection', crash);

// message is what the tests look at in a message of the SDK.
const message = (m) => ({
  id: String(m.getId()),
  category: m.getCategory(),
  type: m.getType(),
  text: m.getText ? m.getText() : undefined,
  action: m.getAction ? m.getAction() : undefined,
  sender: m.getSender() ? m.getSender().getUid() : undefined,
  receiver: m.getReceiverId(),
  receiverType: m.getReceiverType(),
  parentId: m.getParentMessageId() ? String(m.getParentMessageId()) : undefined,
});

const receipt = (r) => ({
  messageId: String(r.getMessageId()),
  sender: r.getSender().getUid(),
  receiver: r.getReceiver(),
  receiverType: r.getReceiverType(),
  receiptType: r.getReceiptType(),
});

function listen() {
  CometChat.addMessageListener('e2e', new CometChat.MessageListener({
    onTextMessageReceived: (m) => emit({ event: 'message', message: message(m) }),
    onMessagesDelivered: (r) => emit({ event: 'receipt', receipt: receipt(r) }),
    onMessagesRead: (r) => emit({ event: 'receipt', receipt: receipt(r) }),
    onTypingStarted: (t) => emit({ event: 'typing', sender: t.getSender().getUid(), receiver: t.getReceiverId() }),
    onMessageEdited: (m) => emit({ event: 'edited', message: message(m) }),
    onMessageDeleted: (m) => emit({ event: 'deleted', message: message(m) }),
  }));
  CometChat.addGroupListener('e2e', new CometChat.GroupListener({
    onGroupMemberJoined: (m, user, group) => emit({ event: 'joined', message: message(m), user: user.getUid(), group: group.getGuid() }),
    onGroupMemberLeft: (m, user, group) => emit({ event: 'left', message: message(m), user: user.getUid(), group: group.getGuid() }),
  }));
  CometChat.addUserListener('e2e', new CometChat.UserListener({
    onUserOnline: (u) => emit({ event: 'online', user: u.getUid() }),
    onUserOffline: (u) => emit({ event: 'offline', user: u.getUid() }),
  }));
  CometChat.addConnectionListener('e2e', new CometChat.ConnectionListener({
    onConnected: () => emit({ event: 'connected' }),
  }));
}

// Each op returns what the tests need of the SDK's answer.
const ops = {
  async init() {
    const settings = new CometChat.AppSettingsBuilder().setRegion('us').subscribePresenceForAllUsers()
      .overrideClientHost(`${host}/v3.0`).overrideAdminHost(`${host}/v3.0`).build();
    await CometChat.init(appId, settings);
    listen();
    return true;
  },
  async login({ token }) {
    const user = await CometChat.login(token);
    return { uid: user.getUid(), name: user.getName() };
  },
  async send({ to, receiverType, text }) {
    return message(await CometChat.sendMessage(new CometChat.TextMessage(to, text, receiverType)));
  },
  async typing({ to, receiverType }) {
    CometChat.startTyping(new CometChat.TypingIndicator(to, receiverType));
    return true;
  },
  async markAsRead({ messageId, receiverId, receiverType, senderId }) {
    await CometChat.markAsRead(messageId, receiverId, receiverType, senderId);
    return true;
  },
  async joinGroup({ guid }) {
    const group = await CometChat.joinGroup(guid, CometChat.GROUP_TYPE.PUBLIC, '');
    return { guid: group.getGuid(), hasJoined: group.getHasJoined() };
  },
  // Pages of a list, each fetched with the SDK's request builders at the
  // page size limit, until a page comes back empty (at most 50 pages).
  async pages({ list, limit, uid, guid }) {
    const builders = {
      users: () => new CometChat.UsersRequestBuilder().setLimit(limit).build(),
      groupMembers: () => new CometChat.GroupMembersRequestBuilder(guid).setLimit(limit).build(),
      conversations: () => new CometChat.ConversationsRequestBuilder().setLimit(limit).build(),
      messages: () => {
        const b = new CometChat.MessagesRequestBuilder().setLimit(limit);
        return (uid ? b.setUID(uid) : b.setGUID(guid)).build();
      },
    };
    const req = builders[list]();
    const fetch = list === 'messages' ? () => req.fetchPrevious() : () => req.fetchNext();
    const out = [];
    for (let i = 0; i < 50; i++) {
      const page = await fetch();
      if (page.length === 0) break;
      const id = { users: (u) => u.getUid(), groupMembers: (m) => m.getUid(), conversations: (c) => c.getConversationId(), messages: (m) => String(m.getId()) };
      out.push(page.map(id[list]));
    }
    return out;
  },
  async leaveGroup({ guid }) {
    return CometChat.leaveGroup(guid);
  },
  async addMembers({ guid, participants }) {
    const members = participants.map((uid) => new CometChat.GroupMember(uid, CometChat.GROUP_MEMBER_SCOPE.PARTICIPANT));
    return CometChat.addMembersToGroup(guid, members, []);
  },
  async block({ uids }) {
    return CometChat.blockUsers(uids);
  },
  async unblock({ uids }) {
    return CometChat.unblockUsers(uids);
  },
  async blocked({ limit }) {
    const users = await new CometChat.BlockedUsersRequestBuilder().setLimit(limit).build().fetchNext();
    return users.map((u) => u.getUid());
  },
  async updateMe({ name }) {
    const user = new CometChat.User(''); // the SDK sets the uid: the logged-in user's
    user.setName(name);
    const me = await CometChat.updateCurrentUserDetails(user);
    return { uid: me.getUid(), name: me.getName() };
  },
  async unreadCounts() {
    return CometChat.getUnreadMessageCount();
  },
  async conversation({ uid }) {
    const c = await CometChat.getConversation(uid, 'user');
    return { id: c.getConversationId(), unread: c.getUnreadMessageCount() };
  },
  async logout() {
    await CometChat.logout();
    return true;
  },
};

// Commands run one at a time, in order.
let queue = Promise.resolve();
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  queue = queue.then(async () => {
    const cmd = JSON.parse(line);
    try {
      emit({ id: cmd.id, result: await ops[cmd.op](cmd) });
    } catch (e) {
      emit({ id: cmd.id, error: { code: String(e.code ?? e), message: e.message ?? '' } });
    }
  });
}).on('close', () => queue.then(() => process.exit(0)));
