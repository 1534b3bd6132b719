/**
 * The page of the "threads and approvals follow the user" tests in Chromium
 * (follow.node.test.ts), bundled by esbuild from the source in development mode (<StrictMode>).
 * Every request goes to the proxy on the page's origin with the context's session cookie; the page
 * sends no token and no user.
 *
 * `?view=run` a durable run of `approve-agent` (`useDurableRun`, its approval card);
 * `?view=inbox` the approvals inbox (`useAgentInbox` + `AgentInbox`);
 * `?view=runs` the durable runs of every device (`useDurableRuns` with a server run list);
 * `?view=threads&thread=…` the thread list (`useAgentThreads` over `createServerThreadStore`) and
 * one thread whose messages are added with the revision the page loaded.
 */
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import {
  AgentApprovalCard,
  AgentClientProvider,
  AgentInbox,
  createAgentClient,
  createServerRunList,
  createServerThreadStore,
  useAgentInbox,
  useAgentThreads,
  useDurableRun,
  useDurableRuns,
  type ConversationMessage,
  type StoredThread,
} from 'agent-console-kit';
import { ServerThreadConflictError } from 'agent-console-kit/core';

const parameters = new URLSearchParams(location.search);
const view = parameters.get('view') ?? 'run';
const baseUrl = `${location.origin}/api/agent-service`;
const client = createAgentClient({ baseUrl, api: 'platform' });
const threadStore = createServerThreadStore({ baseUrl });

function RunView() {
  const [settledCount, setSettledCount] = useState(0);
  const run = useDurableRun({
    agentId: 'approve-agent',
    client,
    // Another device answers the approval: read it back soon.
    poll: { requiresInputMs: 1000 },
    onSettled: () => setSettledCount((count) => count + 1),
  });
  return (
    <main>
      <h1>Durable run</h1>
      <p data-testid="status">{run.status}</p>
      <p data-testid="run-id">{run.runId ?? 'none'}</p>
      <p data-testid="settled-count">{settledCount}</p>
      <button
        type="button"
        disabled={run.status !== 'idle'}
        onClick={() =>
          void run.start({
            messages: [
              { role: 'USER', content: [{ type: 'text', text: 'Deploy the web service' }] },
            ],
          })
        }
      >
        Start
      </button>
      {run.pendingInteractions.length > 0 ? (
        <AgentApprovalCard
          interactions={run.pendingInteractions}
          status={run.status === 'responding' ? 'responding' : 'idle'}
          onSubmit={(decisions) => void run.respond(decisions)}
        />
      ) : null}
      <section aria-label="Answer">
        <p data-testid="answer">{run.output.text}</p>
      </section>
    </main>
  );
}

function InboxView() {
  const inbox = useAgentInbox({ baseUrl, pollIntervalMs: 1000 });
  return (
    <AgentClientProvider client={client}>
      <main>
        <h1>Inbox</h1>
        <AgentInbox inbox={inbox} />
      </main>
    </AgentClientProvider>
  );
}

const serverRuns = createServerRunList({ baseUrl, pollIntervalMs: 1000 });

function RunsView() {
  const { runs } = useDurableRuns({ server: serverRuns });
  return (
    <main>
      <h1>Runs</h1>
      <ul aria-label="Runs">
        {runs.map((run) => (
          <li key={run.localId}>{`${run.request.preview}: ${run.status} (${run.source})`}</li>
        ))}
      </ul>
    </main>
  );
}

const threadId = parameters.get('thread') ?? 'thread-1';

function ThreadsView() {
  const list = useAgentThreads({ threadStore });
  const [thread, setThread] = useState<StoredThread | undefined>(undefined);
  const [loaded, setLoaded] = useState(false);
  const [draft, setDraft] = useState('');
  const [conflict, setConflict] = useState<ServerThreadConflictError | undefined>(undefined);
  const [mine, setMine] = useState<ConversationMessage[]>([]);
  useEffect(() => {
    void threadStore.load(threadId).then((stored) => {
      setThread(stored);
      setLoaded(true);
    });
  }, []);

  const save = async (messages: ConversationMessage[], expectedRevision: number) => {
    try {
      const saved = await threadStore.save(
        { id: threadId, agentId: 'approve-agent', messages },
        { expectedRevision },
      );
      setThread(await threadStore.load(threadId));
      setConflict(undefined);
      setMine([]);
      return saved;
    } catch (error) {
      if (error instanceof ServerThreadConflictError) setConflict(error);
      else throw error;
      return undefined;
    }
  };
  const add = () => {
    const message: ConversationMessage = {
      id: `m-${Math.random().toString(36).slice(2, 10)}`,
      role: 'USER',
      text: draft,
      status: 'done',
      createdAt: Date.now(),
    };
    setMine([message]);
    setDraft('');
    void save([...(thread?.messages ?? []), message], thread?.revision ?? 0);
  };
  const keepBoth = () => {
    const current = conflict?.current;
    void save([...(current?.messages ?? []), ...mine], current?.revision ?? 0);
  };

  return (
    <main>
      <h1>Threads</h1>
      <nav aria-label="Threads">
        <p data-testid="list-status">{list.status}</p>
        <ul>
          {list.threads.map((item) => (
            <li key={item.id}>
              <button type="button" onClick={() => list.select(item.id)}>
                {item.title}
              </button>
            </li>
          ))}
        </ul>
        <button type="button" onClick={() => void list.refresh()}>
          Refresh
        </button>
      </nav>
      <section aria-label="Thread">
        <p data-testid="thread-loaded">{loaded ? 'loaded' : 'loading'}</p>
        <p data-testid="revision">{thread?.revision ?? 0}</p>
        <ol aria-label="Messages">
          {(thread?.messages ?? []).map((message) => (
            <li key={message.id}>{message.text}</li>
          ))}
        </ol>
        {conflict !== undefined ? (
          <div role="alert">
            <p>This thread was saved on another device: yours was not saved yet.</p>
            <p>Not saved: {mine.map((message) => message.text).join(', ')}</p>
            <p>
              Saved there: {(conflict.current?.messages ?? []).map((item) => item.text).join(', ')}
            </p>
            <button type="button" onClick={keepBoth}>
              Keep both
            </button>
          </div>
        ) : null}
        <label>
          Message
          <input value={draft} onChange={(event) => setDraft(event.target.value)} />
        </label>
        <button type="button" disabled={!loaded} onClick={add}>
          Save
        </button>
      </section>
    </main>
  );
}

const container = document.getElementById('root');
if (container === null) throw new Error('The page has no #root.');
createRoot(container).render(
  <StrictMode>
    {view === 'inbox' ? (
      <InboxView />
    ) : view === 'threads' ? (
      <ThreadsView />
    ) : view === 'runs' ? (
      <RunsView />
    ) : (
      <RunView />
    )}
  </StrictMode>,
);
