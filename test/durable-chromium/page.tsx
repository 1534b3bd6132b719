/**
 * The page of the durable-run tests in Chromium (test/durable-chromium.node.test.ts), bundled by
 * esbuild from the source in development mode, so <StrictMode> mounts, unmounts and mounts again.
 *
 * `?view=run&agent=…` shows one `useDurableRun` with an `AgentApprovalCard`; `?view=chat&agent=…`
 * a durable `useAgentConversation` whose thread is kept in localStorage. Each tab sends its own
 * `X-Test-Tab` header, so the server can count the reads of each tab.
 */
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import {
  AgentApprovalCard,
  createAgentClient,
  createThreadStore,
  createDurableRunStore,
  settledDurableRunStatuses,
  useAgentConversation,
  useDurableRun,
  type DurableRunSnapshot,
} from 'agent-console-kit';
import { pageToken } from './page-token.js';

const parameters = new URLSearchParams(location.search);
const agentId = parameters.get('agent') ?? 'durable-agent';
const view = parameters.get('view') ?? 'run';
const tabId = Math.random().toString(36).slice(2, 10);

const client = createAgentClient({
  baseUrl: location.origin,
  api: 'platform',
  token: () => pageToken,
  headers: () => ({ 'x-test-tab': tabId }),
});
const store = createDurableRunStore({ storage: 'local', scope: 'durable-chromium' });
const threadStore = createThreadStore({ scope: 'durable-chromium' });

function userMessage(text: string) {
  return [{ role: 'USER', content: [{ type: 'text', text }] }];
}

function approvalStatus(snapshot: DurableRunSnapshot) {
  if (snapshot.status === 'responding') return 'responding';
  return snapshot.error === undefined ? 'idle' : 'error';
}

function Facts({ snapshot }: { snapshot: DurableRunSnapshot | undefined }) {
  return (
    <dl aria-label="Run facts">
      <dt>Status</dt>
      <dd data-testid="status">{snapshot?.status ?? 'none'}</dd>
      <dt>Run id</dt>
      <dd data-testid="run-id">{snapshot?.runId ?? 'none'}</dd>
      <dt>Connection</dt>
      <dd data-testid="connection">{snapshot?.connection ?? 'none'}</dd>
      <dt>Tab</dt>
      <dd data-testid="tab">{tabId}</dd>
    </dl>
  );
}

function RunView() {
  const [settledCount, setSettledCount] = useState(0);
  const run = useDurableRun({
    agentId,
    client,
    store,
    onSettled: () => setSettledCount((count) => count + 1),
  });
  const busy = run.status !== 'idle' && !settledDurableRunStatuses.has(run.status);
  const { start } = run;
  useEffect(() => {
    // An app that starts its run on mount: StrictMode runs this twice, a reload once more.
    if (parameters.get('autostart') !== null) {
      start({ messages: userMessage('Write the weekly report') }).catch(() => undefined);
    }
  }, [start]);
  return (
    <main>
      <h1>Durable run</h1>
      <Facts snapshot={run} />
      <p data-testid="settled-count">{settledCount}</p>
      <button
        type="button"
        disabled={busy}
        onClick={() => void run.start({ messages: userMessage('Write the weekly report') })}
      >
        Start
      </button>
      <button type="button" disabled={!busy || run.runId === undefined} onClick={run.cancel}>
        Cancel run
      </button>
      {run.status === 'start-unknown' ? (
        <p role="alert">
          This run may have started: it was not sent again.{' '}
          <button type="button" onClick={run.forget}>
            Dismiss
          </button>
        </p>
      ) : null}
      {run.note === 'completed-before-cancel' ? (
        <p role="status">The run finished before the cancel reached it.</p>
      ) : null}
      {run.pendingInteractions.length > 0 ? (
        <AgentApprovalCard
          interactions={run.pendingInteractions}
          status={approvalStatus(run)}
          error={run.error}
          onSubmit={(decisions) => void run.respond(decisions)}
        />
      ) : null}
      <section aria-label="Answer">
        <p data-testid="answer">{run.output.text}</p>
      </section>
    </main>
  );
}

function ChatView() {
  const [text, setText] = useState('');
  const chat = useAgentConversation({
    agentId,
    client,
    executionMode: 'durable',
    threadStore,
    threadId: parameters.get('thread') ?? 'thread-1',
    durableRun: { store },
  });
  const snapshot = chat.durableRun;
  return (
    <main>
      <h1>Durable conversation</h1>
      <Facts snapshot={snapshot} />
      <p data-testid="chat-status">{chat.status}</p>
      <ol aria-label="Messages">
        {chat.messages.map((message) => (
          <li key={message.id} data-role={message.role} data-status={message.status}>
            <span>{message.role === 'USER' ? 'You' : 'Agent'}: </span>
            <span data-testid="message-text">{message.text}</span>
            {message.error !== undefined ? (
              <span role="alert"> {message.error.message}</span>
            ) : null}
          </li>
        ))}
      </ol>
      {chat.pendingInteractions.length > 0 && snapshot !== undefined ? (
        <AgentApprovalCard
          interactions={chat.pendingInteractions}
          status={approvalStatus(snapshot)}
          error={snapshot.error}
          onSubmit={(decisions) => void chat.respond(decisions)}
        />
      ) : null}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void chat.send(text);
          setText('');
        }}
      >
        <label>
          Message
          <input value={text} onChange={(event) => setText(event.target.value)} />
        </label>
        <button type="submit" disabled={chat.status !== 'idle'}>
          Send
        </button>
        <button type="button" disabled={chat.status === 'idle'} onClick={chat.stop}>
          Stop
        </button>
      </form>
    </main>
  );
}

const container = document.getElementById('root');
if (container === null) throw new Error('The page has no #root.');
createRoot(container).render(
  <StrictMode>{view === 'chat' ? <ChatView /> : <RunView />}</StrictMode>,
);
