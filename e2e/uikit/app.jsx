// app.jsx is a small chat app on the platform's official React UI Kit, the
// front end a customer ships, pointed at chattest: the conversations and
// groups on the left, the open conversation (header, messages, composer)
// in the middle, and the thread of a message on the right.
//
// It reads its session from session.json beside the page: {"appId",
// "host" (chattest's HOST:PORT), "authToken" (minted by the backend, e.g.
// with the Go SDK's AuthTokens.Create)}. The only change from a page
// against the hosted service is where the UI Kit's settings point the SDK:
// setClientHost and setAdminHost, to chattest's client API. The UI Kit's
// sounds are off: it would fetch them from the platform's servers.

import React, { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import {
  CometChatConversations,
  CometChatGroups,
  CometChatMessageComposer,
  CometChatMessageHeader,
  CometChatMessageList,
  CometChatProvider,
  CometChatThreadHeader,
  CometChatUIKit,
  UIKitSettingsBuilder,
} from '@cometchat/chat-uikit-react';
import '@cometchat/chat-uikit-react/styles';
import './app.css';

// login initializes the UI Kit against chattest and logs in with the
// session's auth token; it returns the logged-in user.
async function login() {
  const res = await fetch('session.json');
  if (!res.ok) throw new Error(`session.json: ${res.status}`);
  const { appId, host, authToken } = await res.json();
  const settings = new UIKitSettingsBuilder()
    .setAppId(appId)
    .setRegion('us')
    .subscribePresenceForAllUsers()
    .setClientHost(`${host}/v3.0`)
    .setAdminHost(`${host}/v3.0`)
    .build();
  await CometChatUIKit.init(settings);
  return CometChatUIKit.loginWithAuthToken(authToken);
}

// Chat is the logged-in user's chat: a list on the left (Chats or Groups),
// the open conversation, and the open thread.
function Chat({ me }) {
  const [tab, setTab] = useState('chats');
  const [peer, setPeer] = useState(null); // {user} or {group}
  const [thread, setThread] = useState(null); // the parent message
  const open = (p) => {
    setPeer(p);
    setThread(null);
  };
  const key = peer ? (peer.user ? `user-${peer.user.getUid()}` : `group-${peer.group.getGuid()}`) : 'none';
  return (
    <div className="chat">
      <aside className="lists">
        <header>
          <span id="me">{me.getName()}</span>
          <nav>
            <button id="tab-chats" className={tab === 'chats' ? 'on' : ''} onClick={() => setTab('chats')}>Chats</button>
            <button id="tab-groups" className={tab === 'groups' ? 'on' : ''} onClick={() => setTab('groups')}>Groups</button>
          </nav>
        </header>
        {tab === 'chats' ? (
          <CometChatConversations
            disableSoundForMessages
            onItemClick={(c) => {
              const w = c.getConversationWith();
              open(c.getConversationType() === 'group' ? { group: w } : { user: w });
            }}
          />
        ) : (
          <CometChatGroups onItemClick={(group) => open({ group })} />
        )}
      </aside>
      <main className="conversation" data-open={key}>
        {peer ? (
          <React.Fragment key={key}>
            <CometChatMessageHeader {...peer} hideVoiceCallButton hideVideoCallButton />
            <CometChatMessageList {...peer} disableSoundForMessages onThreadRepliesClick={setThread} />
            <CometChatMessageComposer {...peer} disableSoundForMessage />
          </React.Fragment>
        ) : (
          <p className="empty">Pick a conversation or a group.</p>
        )}
      </main>
      {peer && thread ? (
        <section className="thread" key={thread.getId()} data-parent={String(thread.getId())}>
          <CometChatThreadHeader parentMessage={thread} onClose={() => setThread(null)} />
          <CometChatMessageList {...peer} parentMessage={thread} disableSoundForMessages />
          <CometChatMessageComposer {...peer} parentMessageId={thread.getId()} disableSoundForMessage />
        </section>
      ) : null}
    </div>
  );
}

function App() {
  const [state, setState] = useState({ status: 'loading' });
  useEffect(() => {
    login().then(
      (me) => setState({ status: 'ready', me }),
      (e) => setState({ status: 'error', error: String(e && e.message ? e.message : e) }),
    );
  }, []);
  return (
    <>
      <p id="status" className={state.status}>{state.status === 'error' ? `Login failed: ${state.error}` : state.status}</p>
      {state.me ? (
        <CometChatProvider config={{ disableSoundForMessages: true, disableSoundForCalls: true }}>
          <Chat me={state.me} />
        </CometChatProvider>
      ) : null}
    </>
  );
}

createRoot(document.getElementById('root')).render(<App />);
