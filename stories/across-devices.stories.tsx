import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { http, passthrough } from 'msw';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  AgentClientProvider,
  AgentInbox,
  createAgentClient,
  createDurableRunStore,
  createServerRunList,
  createServerThreadStore,
  useAgentInbox,
  useAgentThreads,
  useDurableRuns,
  type AgentClient,
  type ThreadStore,
} from 'agent-console-kit';
import type { DurableRunStore, ServerRunList } from 'agent-console-kit/core';
import { AgentConsole } from 'agent-console-kit/console';
import { createPgliteStore, type AgentStore, type PgliteDatabase } from 'agent-console-kit/server';
import { createMockAgentService, demoAgents } from 'agent-console-kit/testing';
import 'agent-console-kit/styles.css';
import { createDevProxy, devBasePath } from '../src/bin/dev-proxy';
import { mockOnlyStory } from '../.storybook/real-mode';

/**
 * Two devices of one user against the dev backend. `npx agent-console-kit dev` is the mock
 * service, the proxy with its store (PGlite) and a fixed demo user on node:http; here the same
 * proxy (`createDevProxy`, which the command serves) runs in the page: msw hands it the requests
 * of `https://devices.mock.test`, and PGlite (PostgreSQL compiled to WebAssembly) keeps the store
 * in memory, so the story works offline. With `STORYBOOK_DEV_BACKEND=http://127.0.0.1:4000` the
 * panes talk to a running `agent-console-kit dev --allow-origin http://localhost:6006` instead.
 *
 * Each pane is a device: its own client, its own durable run store (its "localStorage"), its own
 * thread store and run list over the proxy. Nothing is shared but the backend.
 */
const devBackend: string | undefined = import.meta.env['STORYBOOK_DEV_BACKEND'] || undefined;
const origin = devBackend ?? 'https://devices.mock.test';
const baseUrl = `${origin}${devBasePath}`;

let openedStore: Promise<AgentStore> | undefined;
/** One PGlite per page, opened by the first story that needs it (a few MB of WebAssembly). */
function pageStore(): Promise<AgentStore> {
  openedStore ??= import('@electric-sql/pglite').then(async ({ PGlite }) =>
    createPgliteStore({ database: (await PGlite.create()) as PgliteDatabase }),
  );
  return openedStore;
}

type Msw = { use: (...handlers: ReturnType<typeof http.all>[]) => void };

/** A fresh demo service and an empty store for the demo user, served at `{origin}{devBasePath}`. */
async function serveDevBackend({ msw }: { msw: Msw }) {
  if (devBackend !== undefined) {
    // To the running backend: the preview's own mock handlers would answer its agent paths.
    msw.use(http.all(`${baseUrl}/*`, () => passthrough()));
    return;
  }
  const store = await pageStore();
  await store.deleteUser('demo-user');
  const proxy = createDevProxy({ service: createMockAgentService({ agents: demoAgents }), store });
  msw.use(http.all(`${baseUrl}/*`, ({ request }) => proxy(request)));
}

interface Device {
  client: AgentClient;
  runStore: DurableRunStore;
  threadStore: ThreadStore;
  /** Every run of the user, on every device (`useDurableRuns`' `server`). */
  runs: ServerRunList;
  /** The runs waiting for approval (the inbox). */
  waiting: ServerRunList;
}

function newDevice(): Device {
  return {
    client: createAgentClient({ baseUrl, api: 'platform' }),
    runStore: createDurableRunStore({ storage: 'memory' }),
    threadStore: createServerThreadStore({ baseUrl }),
    runs: createServerRunList({ baseUrl, pollIntervalMs: 1000 }),
    waiting: createServerRunList({ baseUrl, group: 'waiting', pollIntervalMs: 1000 }),
  };
}

/** The laptop: the console of a durable agent that asks for approval, its threads on the server. */
function Laptop({ device }: { device: Device }) {
  return (
    <section aria-labelledby="device-laptop" className="ack-theme ack-root" style={paneStyle}>
      <h2 id="device-laptop" style={paneHeading}>
        Laptop
      </h2>
      <AgentClientProvider client={device.client}>
        <AgentConsole
          agentId="approval-agent"
          executionMode="durable"
          threadStore={device.threadStore}
          durableRun={{ store: device.runStore, poll: { requiresInputMs: 1000 } }}
          headingLevel={3}
        />
      </AgentClientProvider>
    </section>
  );
}

/** The phone: the approvals inbox, the runs of every device, and the threads. */
function Phone({ device }: { device: Device }) {
  const inbox = useAgentInbox({ list: device.waiting });
  const { runs } = useDurableRuns({ store: device.runStore, server: device.runs });
  const threads = useAgentThreads({ threadStore: device.threadStore });
  return (
    // `ack-root`: the pane's own headings, lists and button take the components' look.
    <section aria-labelledby="device-phone" className="ack-theme ack-root" style={paneStyle}>
      <h2 id="device-phone" style={paneHeading}>
        Phone
      </h2>
      <AgentInbox inbox={inbox} client={device.client} agentName={agentName} />
      <h3 style={sectionHeading}>Runs on every device</h3>
      <ul aria-label="Runs on every device" style={list}>
        {runs.map((run) => (
          <li key={run.localId}>
            {`${run.request.preview} (${agentName(run.agentId)}): ${run.status}`}
          </li>
        ))}
      </ul>
      <h3 style={sectionHeading}>Threads</h3>
      <ul aria-label="Threads" style={list}>
        {threads.threads.map((thread) => (
          <li key={thread.id}>{thread.title}</li>
        ))}
      </ul>
      <button type="button" onClick={() => void threads.refresh()}>
        Refresh threads
      </button>
    </section>
  );
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const agentName = (agentId: string) =>
  demoAgents.find((agent) => agent.agent.agent_id === agentId)?.agent.name ?? agentId;
const paneStyle = {
  flex: '1 1 22rem',
  minWidth: 0,
  border: '1px solid var(--ack-color-border)',
  borderRadius: 'var(--ack-radius-lg)',
  padding: 'var(--ack-space-4)',
};
const paneHeading = { margin: '0 0 var(--ack-space-3)', fontSize: 'var(--ack-text-lg)' };
const sectionHeading = {
  margin: 'var(--ack-space-5) 0 var(--ack-space-2)',
  fontSize: 'var(--ack-text-md)',
  fontWeight: 600,
};
const list = {
  margin: '0 0 var(--ack-space-3)',
  paddingLeft: 'var(--ack-space-5)',
  fontSize: 'var(--ack-text-md)',
};

function TwoDevicesDemo() {
  const [laptop] = useState(newDevice);
  const [phone] = useState(newDevice);
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'flex-start' }}>
      <Laptop device={laptop} />
      <Phone device={phone} />
    </div>
  );
}

const meta = {
  title: 'Across devices',
  component: TwoDevicesDemo,
  parameters: {
    docs: {
      description: {
        component:
          'Two devices of the demo user against the dev backend (`npx agent-console-kit dev`: the mock service, the proxy and its PGlite store), here in the page: a durable run started on the laptop waits for approval, the phone’s inbox lists it, and approving it there shows the answer on the laptop. See docs/threads-across-devices.md.',
      },
    },
  },
} satisfies Meta<typeof TwoDevicesDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * Ask on the laptop; the run waits for approval on both; approve on the phone; the laptop shows
 * the answer, and the laptop's thread lists on the phone.
 */
export const TwoDevices: Story = mockOnlyStory({
  beforeEach: serveDevBackend,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const laptopPane = canvas.getByRole('region', { name: 'Laptop' });
    const laptop = within(laptopPane);
    const phone = within(canvas.getByRole('region', { name: 'Phone' }));
    // One of its own: a running dev backend keeps the runs and threads of earlier plays.
    const question = `Tell the team the report is ready (${Date.now().toString(36)})`;

    const box = await laptop.findByRole('textbox', { name: 'Message' }, { timeout: 20_000 });
    await userEvent.type(box, `${question}{Enter}`);
    await laptop.findByRole('region', { name: 'Approval needed' }, { timeout: 20_000 });

    // The phone: the run waits in its inbox and lists among the runs of every device.
    const inbox = within(phone.getByRole('region', { name: 'Waiting for your approval' }));
    const item = await inbox.findByRole('button', { name: new RegExp(escaped(question)) });
    await phone.findByText(`${question} (Slack notifier): requires-input`);
    await userEvent.click(item);
    const opened = await inbox.findByRole('region', { name: question });
    const card = await within(opened).findByRole('region', { name: 'Approval needed' });
    const approve = within(card).getByRole('button', { name: 'Approve' });
    await waitFor(() => expect(approve).not.toHaveAttribute('aria-disabled', 'true'));
    await userEvent.click(approve);
    await within(opened).findByText('Done');

    // The laptop reads the answer the phone's approval led to.
    await waitFor(() => expect(laptopPane).toHaveTextContent('Sent your Slack message.'));
    await waitFor(() =>
      expect(laptop.queryByRole('region', { name: 'Approval needed' })).toBeNull(),
    );
    // The laptop's thread, saved on the server, lists on the phone.
    await userEvent.click(phone.getByRole('button', { name: 'Refresh threads' }));
    await within(phone.getByRole('list', { name: 'Threads' })).findByText(question);
  },
});
