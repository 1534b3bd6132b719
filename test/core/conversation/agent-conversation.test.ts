import { describe, expect, it, vi } from 'vitest';
import {
  AgentInputError,
  createAgentClient,
  type ConversationMessage,
  type ConversationSnapshot,
} from 'agent-console-kit';
import {
  AgentConversationBusyError,
  createAgentConversation,
  type AgentApi,
} from 'agent-console-kit/core';
import {
  demoAgents,
  runFailedEvent,
  textEvents,
  type MockAgentServer,
  type MockRunScenario,
} from 'agent-console-kit/testing';
import { serveChat, serveForTest } from '../../support/mock-server.js';

/** An agent whose answer names the newest question and counts the messages it was sent. */
const echo: MockRunScenario = {
  eventsFor: (request) =>
    textEvents(`Answer to ${request.messages.at(-1)?.text} (${request.messages.length} sent)`),
};

function conversationOn(mock: MockAgentServer, api: AgentApi, options: object = {}) {
  return createAgentConversation(createAgentClient({ baseUrl: mock.url, api, token: 'tok-1234' }), {
    agentId: 'chat',
    reconnect: { baseDelayMs: 10 },
    ...options,
  });
}

const user = (text: string) => ({ role: 'USER', content: [{ type: 'text', text }] });
const agent = (text: string) => ({ role: 'GLEAN_AI', content: [{ type: 'text', text }] });
const sentMessages = (mock: MockAgentServer) =>
  mock.runRequests('chat').map((request) => (request.body as { messages: unknown }).messages);
const shape = (snapshot: ConversationSnapshot) =>
  snapshot.messages.map((message) => [message.role, message.status, message.text]);

describe.each<AgentApi>(['rest-v1', 'platform'])('on %s', (api) => {
  describe('given three turns', () => {
    it('sends the whole history in the wire shape with each POST, one POST per turn', async () => {
      const mock = await serveChat(echo);
      const saved: (readonly ConversationMessage[])[] = [];
      const conversation = conversationOn(mock, api, {
        onMessagesChange: (messages: readonly ConversationMessage[]) => saved.push(messages),
      });

      await conversation.send('First?');
      await conversation.send('  Second?  ');
      const final = await conversation.send('Third?');

      expect(sentMessages(mock)).toEqual([
        [user('First?')],
        [user('First?'), agent('Answer to First? (1 sent)'), user('Second?')],
        [
          user('First?'),
          agent('Answer to First? (1 sent)'),
          user('Second?'),
          agent('Answer to Second? (3 sent)'),
          user('Third?'),
        ],
      ]);
      expect(shape(final)).toEqual([
        ['USER', 'done', 'First?'],
        ['GLEAN_AI', 'done', 'Answer to First? (1 sent)'],
        ['USER', 'done', 'Second?'],
        ['GLEAN_AI', 'done', 'Answer to Second? (3 sent)'],
        ['USER', 'done', 'Third?'],
        ['GLEAN_AI', 'done', 'Answer to Third? (5 sent)'],
      ]);
      expect(final.status).toBe('idle');
      expect(final.run.status).toBe('done');
      expect(final.runs.size).toBe(3);
      expect(saved).toHaveLength(3);
      expect(saved[2]).toBe(final.messages);
      // Plain JSON: a round trip through JSON gives the same messages.
      expect(JSON.parse(JSON.stringify(final.messages))).toEqual(final.messages);
      expect(conversation.getSnapshot()).toBe(final);
      const answer = final.messages[5];
      expect(answer?.startedAt).toBeTypeOf('number');
      expect(answer?.endedAt).toBeGreaterThanOrEqual(answer?.firstEventAt ?? Infinity);
    });
  });

  describe('given a turn stopped midway', () => {
    it('keeps the partial answer as stopped, sends it as history, and sends again', async () => {
      const mock = await serveChat({
        events: textEvents('one two three four five six'),
        delayMs: 150,
      });
      const conversation = conversationOn(mock, api);
      const turn = conversation.send('Slowly?');
      await vi.waitFor(() => expect(conversation.getSnapshot().messages[1]?.text).toMatch(/two/));

      conversation.stop();
      const stopped = await turn;

      expect(stopped.status).toBe('idle');
      expect(stopped.messages[1]?.status).toBe('stopped');
      const partial = stopped.messages[1]?.text ?? '';
      expect(partial).toMatch(/^one two/);
      expect(partial).not.toBe('one two three four five six');
      await mock.waitFor(() => mock.runRequests('chat')[0]?.closedByClient === true);

      await conversation.send('And now?');

      expect(sentMessages(mock)[1]).toEqual([user('Slowly?'), agent(partial), user('And now?')]);
      expect(mock.postCount('chat')).toBe(2);
    });

    it('leaves the stopped answer out of the history with sendStoppedAnswers: false', async () => {
      const mock = await serveChat({ events: textEvents('one two three four'), delayMs: 150 });
      const conversation = conversationOn(mock, api, { sendStoppedAnswers: false });
      const turn = conversation.send('Slowly?');
      await vi.waitFor(() => expect(conversation.getSnapshot().messages[1]?.text).toMatch(/one/));
      conversation.stop();
      await turn;

      await conversation.send('And now?');

      expect(sentMessages(mock)[1]).toEqual([user('Slowly?'), user('And now?')]);
    });
  });

  describe('given a failed turn', () => {
    it('retry sends one new POST and replaces the failed answer', async () => {
      const mock = await serveChat({
        ...echo,
        failFirst: { attempts: 1, status: 500 },
      });
      const conversation = conversationOn(mock, api);
      const failed = await conversation.send('Works?');
      expect(failed.messages[1]?.status).toBe('error');
      expect(failed.messages[1]?.error).toMatchObject({ kind: 'http', status: 500 });
      expect(failed.error?.kind).toBe('http');
      const failedId = failed.messages[1]?.id;

      const retried = await conversation.retry();

      expect(mock.postCount('chat')).toBe(2);
      expect(sentMessages(mock)[1]).toEqual([user('Works?')]);
      expect(shape(retried)).toEqual([
        ['USER', 'done', 'Works?'],
        ['GLEAN_AI', 'done', 'Answer to Works? (1 sent)'],
      ]);
      expect(retried.messages[1]?.id).not.toBe(failedId);
      expect(retried.runs.has(failedId ?? '')).toBe(false);
      expect(retried.error).toBeUndefined();
    });

    it('shows a failed partial answer but does not send it in the next turn', async () => {
      const mock = await serveChat({
        events: [
          ...textEvents('Partial answer'),
          { ...runFailedEvent({ status: 500, code: 'internal_error' }), api: 'platform' },
          { event: 'message', data: { error: { message: 'failed' } }, api: 'rest-v1' },
        ],
      });
      const conversation = conversationOn(mock, api);
      const failed = await conversation.send('Try?');
      // rest-v1 has no documented failure event: the run ends when the stream closes.
      const expectedStatus = api === 'platform' ? 'error' : 'done';
      expect(failed.messages[1]?.status).toBe(expectedStatus);
      expect(failed.messages[1]?.text).toBe('Partial answer');
      if (api === 'rest-v1') return;

      await conversation.send('Again?');

      expect(sentMessages(mock)[1]).toEqual([user('Try?'), user('Again?')]);
    });
  });

  describe('given an edit of the last USER message', () => {
    it('sends the edited history; the messages after it are kept as the version before', async () => {
      const mock = await serveChat(echo);
      const conversation = conversationOn(mock, api);
      await conversation.send('One?');
      const two = await conversation.send('Two?');
      const editedId = two.messages[2]?.id ?? '';

      const edited = await conversation.edit(editedId, 'Two, better?');

      expect(sentMessages(mock)[2]).toEqual([
        user('One?'),
        agent('Answer to One? (1 sent)'),
        user('Two, better?'),
      ]);
      expect(shape(edited)).toEqual([
        ['USER', 'done', 'One?'],
        ['GLEAN_AI', 'done', 'Answer to One? (1 sent)'],
        ['USER', 'done', 'Two, better?'],
        ['GLEAN_AI', 'done', 'Answer to Two, better? (3 sent)'],
      ]);
      expect(edited.messages[2]?.id).toBe(editedId);
      // The answer it replaced is a version now: its run stays (issue 29).
      expect(edited.runs.size).toBe(3);
      expect(edited.versions.get(editedId)).toMatchObject({ index: 1, count: 2 });
      expect(() => conversation.edit(edited.messages[1]?.id ?? '', 'x')).toThrow(AgentInputError);
      expect(() => conversation.edit('nope', 'x')).toThrow(AgentInputError);
      expect(mock.postCount('chat')).toBe(3);
    });
  });

  describe('given a turn streaming', () => {
    it('refuses send, retry and edit with a typed error and sends nothing', async () => {
      const mock = await serveChat({ events: textEvents('a b c'), delayMs: 100, neverEnd: true });
      const conversation = conversationOn(mock, api);
      void conversation.send('First');
      await vi.waitFor(() => expect(conversation.getSnapshot().status).toBe('streaming'));
      const before = conversation.getSnapshot();

      expect(() => conversation.send('Second')).toThrow(AgentConversationBusyError);
      expect(() => conversation.retry()).toThrow(AgentConversationBusyError);
      expect(() => conversation.edit(before.messages[0]?.id ?? '', 'x')).toThrow(
        AgentConversationBusyError,
      );

      expect(conversation.getSnapshot().messages).toHaveLength(2);
      expect(mock.postCount('chat')).toBe(1);
      conversation.stop();
    });

    it('clear aborts the turn, the server sees the socket close, and the thread is empty', async () => {
      const mock = await serveChat({ events: textEvents('a b c'), delayMs: 50, neverEnd: true });
      const saved: (readonly ConversationMessage[])[] = [];
      const conversation = conversationOn(mock, api, {
        onMessagesChange: (messages: readonly ConversationMessage[]) => saved.push(messages),
      });
      const turn = conversation.send('First');
      await vi.waitFor(() => expect(conversation.getSnapshot().messages[1]?.text).toMatch(/a/));

      conversation.clear();

      await mock.waitFor(() => mock.runRequests('chat')[0]?.closedByClient === true);
      const snapshot = conversation.getSnapshot();
      expect(snapshot.messages).toEqual([]);
      expect(snapshot.status).toBe('idle');
      expect(snapshot.run.status).toBe('idle');
      expect(saved).toEqual([[]]);
      await turn;
      expect(conversation.getSnapshot()).toBe(snapshot);
    });
  });

  describe('given initialMessages', () => {
    it('restores the thread and continues it', async () => {
      const mock = await serveChat(echo);
      const initialMessages: ConversationMessage[] = JSON.parse(
        JSON.stringify([
          { id: 'u1', role: 'USER', text: 'Saved?', status: 'done', createdAt: 1 },
          { id: 'a1', role: 'GLEAN_AI', text: 'Saved answer', status: 'done', createdAt: 2 },
          { id: 'a2', role: 'GLEAN_AI', text: 'Cut', status: 'streaming', createdAt: 3 },
        ]),
      ) as ConversationMessage[];
      const conversation = conversationOn(mock, api, { initialMessages });
      expect(shape(conversation.getSnapshot())).toEqual([
        ['USER', 'done', 'Saved?'],
        ['GLEAN_AI', 'done', 'Saved answer'],
        ['GLEAN_AI', 'stopped', 'Cut'],
      ]);

      const next = await conversation.send('Continue?');

      expect(sentMessages(mock)).toEqual([
        [user('Saved?'), agent('Saved answer'), agent('Cut'), user('Continue?')],
      ]);
      expect(next.messages).toHaveLength(5);
    });

    it.each([
      ['not an array', { id: 'x' }],
      ['an unknown role', [{ id: 'x', role: 'SYSTEM', text: 'hi', status: 'done', createdAt: 1 }]],
      ['a missing id', [{ role: 'USER', text: 'hi', status: 'done', createdAt: 1 }]],
      [
        'a blank USER message',
        [{ id: 'x', role: 'USER', text: ' ', status: 'done', createdAt: 1 }],
      ],
      [
        'a duplicate id',
        [
          { id: 'x', role: 'USER', text: 'a', status: 'done', createdAt: 1 },
          { id: 'x', role: 'GLEAN_AI', text: 'b', status: 'done', createdAt: 2 },
        ],
      ],
    ])('refuses %s with an AgentInputError and sends nothing', async (_name, initialMessages) => {
      const mock = await serveChat(echo);

      expect(() => conversationOn(mock, api, { initialMessages })).toThrow(AgentInputError);
      expect(mock.postCount()).toBe(0);
    });
  });

  describe('given a run that restarts on reconnect', () => {
    it('keeps only the new attempt’s text in the answer', async () => {
      const mock = await serveChat({
        events: textEvents('alpha beta gamma delta'),
        dropAfter: 2,
        dropTimes: 1,
        onReconnect: 'restart',
      });
      const conversation = conversationOn(mock, api);

      const final = await conversation.send('Go');

      expect(final.messages[1]?.text).toBe('alpha beta gamma delta');
      expect(final.messages[1]?.status).toBe('done');
      expect(final.run.restarts).toBe(1);
      expect(mock.postCount('chat')).toBe(2);
    });
  });

  describe('given a 429 with Retry-After', () => {
    it('waits, and the snapshot says the service asked to wait', async () => {
      const mock = await serveChat({
        ...echo,
        failFirst: { attempts: 1, status: 429, retryAfter: '1' },
      });
      const seen: ConversationSnapshot[] = [];
      const conversation = conversationOn(mock, api);
      conversation.subscribe(() => seen.push(conversation.getSnapshot()));

      const final = await conversation.send('Busy?');

      const waiting = seen.find((snapshot) => snapshot.status === 'reconnecting');
      expect(waiting?.run.reconnectReason).toMatchObject({ status: 429 });
      expect(waiting?.run.nextAttemptAt).toBeTypeOf('number');
      expect(waiting?.messages[1]?.status).toBe('streaming');
      expect(final.messages[1]?.status).toBe('done');
      expect(mock.postCount('chat')).toBe(2);
    });
  });
});

describe('the snapshot', () => {
  it('is the same object until something changes, and send refuses blank text', async () => {
    const mock = await serveChat(echo);
    const conversation = conversationOn(mock, 'rest-v1');
    const first = conversation.getSnapshot();

    expect(conversation.getSnapshot()).toBe(first);
    expect(() => conversation.send('   ')).toThrow(AgentInputError);
    expect(conversation.getSnapshot()).toBe(first);
    expect(mock.postCount()).toBe(0);
  });
});

describe('given the demo chat agent', () => {
  it('answers from the whole history: it names the first question and counts the turns', async () => {
    const server = await serveForTest({ agents: demoAgents });
    const conversation = createAgentConversation(createAgentClient({ baseUrl: server.url }), {
      agentId: 'chat-agent',
    });

    await conversation.send('Where is my laptop?');
    await conversation.send('And the charger?');
    const final = await conversation.send('Thanks!');

    expect(final.messages[5]?.text).toContain(
      'This is turn 3, with 2 earlier answers in the history: your first question was "Where is my laptop?", and now you ask "Thanks!".',
    );
    const bodies = server.runRequests('chat-agent').map((request) => request.body);
    expect(bodies.map((body) => (body as { messages: unknown[] }).messages.length)).toEqual([
      1, 3, 5,
    ]);
  });
});
