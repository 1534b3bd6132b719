/**
 * Edit, regenerate and versions of a streamed conversation, against the mock service on a real
 * socket: what each POST sends, what the thread shows, and what the thread store keeps.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  AgentConversationBusyError,
  AgentInputError,
  createAgentClient,
  createAgentConversation,
  createMemoryThreadStore,
  type AgentConversation,
  type ConversationSnapshot,
  type ThreadStore,
} from 'agent-console-kit/core';
import { textEvents, type MockAgentServer, type MockRunScenario } from 'agent-console-kit/testing';
import { serveChat } from '../../support/mock-server.js';

/** Each answer names the newest question, how many messages came with it, and its POST. */
function numbered(): MockRunScenario {
  let post = 0;
  return {
    eventsFor: (request) =>
      textEvents(
        `Answer ${++post} to ${request.messages.at(-1)?.text} (${request.messages.length} sent)`,
      ),
  };
}

function conversationOn(mock: MockAgentServer, options: object = {}) {
  return createAgentConversation(
    createAgentClient({ baseUrl: mock.url, api: 'platform', token: 'tok-1234' }),
    { agentId: 'chat', reconnect: { baseDelayMs: 10 }, ...options },
  );
}

const texts = (snapshot: ConversationSnapshot) => snapshot.messages.map((message) => message.text);
const sentTexts = (mock: MockAgentServer) =>
  mock
    .runRequests('chat')
    .map((request) =>
      (request.body as { messages: { content: { text: string }[] }[] }).messages.map(
        (message) => message.content[0]?.text,
      ),
    );

async function threeTurns(conversation: AgentConversation) {
  await conversation.send('One?');
  await conversation.send('Two?');
  return conversation.send('Three?');
}

describe('given three turns, an edit of the second question', () => {
  it('sends the history up to it, shows the new answer, and keeps the old turns as version 1 of 2', async () => {
    const mock = await serveChat(numbered());
    const conversation = conversationOn(mock);
    const before = await threeTurns(conversation);
    const secondId = before.messages[2]?.id ?? '';

    const edited = await conversation.edit(secondId, 'Two, better?');

    expect(sentTexts(mock)[3]).toEqual(['One?', 'Answer 1 to One? (1 sent)', 'Two, better?']);
    expect(texts(edited)).toEqual([
      'One?',
      'Answer 1 to One? (1 sent)',
      'Two, better?',
      'Answer 4 to Two, better? (3 sent)',
    ]);
    expect(edited.messages[2]?.id).toBe(secondId);
    const version = edited.versions.get(secondId);
    expect(version).toMatchObject({ index: 1, count: 2 });

    const first = conversation.showVersion(version?.ids[0] ?? '');
    expect(texts(first)).toEqual(texts(before));
    expect(first.messages.slice(3)).toEqual(before.messages.slice(3));
    expect(first.versions.get(version?.ids[0] ?? '')).toMatchObject({ index: 0, count: 2 });
    // The next turn continues the version shown.
    await conversation.send('Four?');
    expect(sentTexts(mock)[4]).toHaveLength(7);
    expect(sentTexts(mock)[4]?.slice(2, 4)).toEqual(['Two?', 'Answer 2 to Two? (3 sent)']);

    const second = conversation.showVersion(secondId);
    expect(texts(second)).toEqual(texts(edited));
    expect(mock.postCount('chat')).toBe(5);
    expect(() => conversation.showVersion('nope')).toThrow(AgentInputError);
  });
});

describe('given an answer, regenerate', () => {
  it('writes it again from the history before it and keeps the previous answer as a version', async () => {
    const mock = await serveChat(numbered());
    const conversation = conversationOn(mock);
    const before = await threeTurns(conversation);
    const firstAnswer = before.messages[1]?.id ?? '';

    const again = await conversation.regenerate(firstAnswer);

    expect(sentTexts(mock)[3]).toEqual(['One?']);
    expect(texts(again)).toEqual(['One?', 'Answer 4 to One? (1 sent)']);
    const newId = again.messages[1]?.id ?? '';
    expect(again.versions.get(newId)).toEqual({ index: 1, count: 2, ids: [firstAnswer, newId] });
    expect(texts(conversation.showVersion(firstAnswer))).toEqual(texts(before));

    // The last answer (no id), then retry: each keeps the one before as a version.
    await conversation.regenerate();
    const retried = await conversation.retry();
    const lastId = retried.messages.at(-1)?.id ?? '';
    expect(retried.versions.get(lastId)).toMatchObject({ index: 2, count: 3 });
    expect(() => conversation.regenerate(before.messages[0]?.id)).toThrow(AgentInputError);
  });

  it('retry replaces a failed answer with no text (nothing to keep)', async () => {
    const mock = await serveChat({ ...numbered(), failFirst: { attempts: 1, status: 500 } });
    const conversation = conversationOn(mock);
    await conversation.send('Works?');

    const retried = await conversation.retry();

    expect(retried.messages).toHaveLength(2);
    expect(retried.versions.size).toBe(0);
  });
});

describe('given a turn streaming', () => {
  it('edit with stopRunning stops it and sends the edit in one step; the stopped answer is kept', async () => {
    const mock = await serveChat({ events: textEvents('a b c'), delayMs: 100, neverEnd: true });
    const conversation = conversationOn(mock);
    void conversation.send('First');
    await vi.waitFor(() => expect(conversation.getSnapshot().messages[1]?.text).toMatch(/a/));
    const questionId = conversation.getSnapshot().messages[0]?.id ?? '';
    expect(() => conversation.edit(questionId, 'x')).toThrow(AgentConversationBusyError);
    expect(() => conversation.showVersion(questionId)).toThrow(AgentConversationBusyError);

    const edited = conversation.edit(questionId, 'First, again', { stopRunning: true });
    await vi.waitFor(() => expect(mock.postCount('chat')).toBe(2));

    const snapshot = conversation.getSnapshot();
    expect(texts(snapshot)[0]).toBe('First, again');
    expect(snapshot.messages[1]?.status).toBe('streaming');
    const version = snapshot.versions.get(questionId);
    expect(version).toMatchObject({ index: 1, count: 2 });
    expect(sentTexts(mock)[1]).toEqual(['First, again']);
    conversation.stop();
    await edited;

    const old = conversation.showVersion(version?.ids[0] ?? '');
    expect(old.messages.map((message) => [message.text, message.status])).toEqual([
      ['First', 'done'],
      [expect.stringMatching(/^a/) as unknown, 'stopped'],
    ]);
  });
});

describe('given a thread store', () => {
  it('saves the versions with the thread; a new conversation over the same thread finds them', async () => {
    const mock = await serveChat(numbered());
    const threadStore: ThreadStore = createMemoryThreadStore();
    const conversation = conversationOn(mock, { threadStore, threadId: 't-1' });
    const before = await threeTurns(conversation);
    const secondId = before.messages[2]?.id ?? '';
    const edited = await conversation.edit(secondId, 'Two, better?');
    await conversation.saved;

    const stored = await threadStore.load('t-1');
    expect(stored?.messages).toEqual(edited.messages);
    expect(stored?.versions?.hidden.map((item) => item.message.text)).toEqual([
      'Two?',
      'Answer 2 to Two? (3 sent)',
      'Three?',
      'Answer 3 to Three? (5 sent)',
    ]);

    const reloaded = conversationOn(mock, { threadStore, threadId: 't-1' });
    await reloaded.loaded;
    const version = reloaded.getSnapshot().versions.get(secondId);
    expect(version).toMatchObject({ index: 1, count: 2 });
    expect(texts(reloaded.showVersion(version?.ids[0] ?? ''))).toEqual(texts(before));
    await reloaded.saved;
    // The version shown is saved as the thread's own.
    const storedAfter = await threadStore.load('t-1');
    expect(storedAfter?.messages.map((message) => message.text)).toEqual(texts(before));
  });
});
