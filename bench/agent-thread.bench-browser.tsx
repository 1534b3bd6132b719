/**
 * The figures of `npm run bench:thread` (not a test: it asserts nothing). In Chromium, with the
 * stylesheet: the first render of a 1,000-message thread (React commit + layout), and one token
 * appended to the streaming answer at its end (the cost of every frame while an answer streams).
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { it } from 'vitest';
import 'agent-console-kit/styles.css';
import { AgentThread, type ConversationMessage } from 'agent-console-kit';

const count = 1000;
const tokens = 200;
const rounds = 3;

function thread(): ConversationMessage[] {
  return Array.from({ length: count }, (_, index): ConversationMessage => ({
    id: `m${index}`,
    role: index % 2 === 0 ? 'USER' : 'GLEAN_AI',
    text: `Message ${index}: ${'some words of a message, '.repeat(1 + (index % 7))}`,
    status: index === count - 1 ? 'streaming' : 'done',
    createdAt: index,
  }));
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

it('measures a 1,000-message thread', () => {
  const firstRender: number[] = [];
  const perToken: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    let messages = thread();
    const show = () => (
      <AgentThread messages={messages} status="streaming" height={600} onRetry={() => undefined} />
    );
    let start = performance.now();
    flushSync(() => root.render(show()));
    void host.getBoundingClientRect().height; // layout
    firstRender.push(performance.now() - start);

    start = performance.now();
    for (let token = 0; token < tokens; token += 1) {
      const last = messages[count - 1] as ConversationMessage;
      messages = [...messages.slice(0, -1), { ...last, text: `${last.text} token${token}` }];
      flushSync(() => root.render(show()));
      void host.getBoundingClientRect().height;
    }
    perToken.push((performance.now() - start) / tokens);
    root.unmount();
    host.remove();
  }
  console.log(
    `AgentThread, ${count} messages in Chromium: first render + layout ${median(firstRender).toFixed(1)} ms ` +
      `(runs: ${firstRender.map((value) => value.toFixed(0)).join(', ')}); ` +
      `one streamed token ${median(perToken).toFixed(2)} ms per update (median of ${rounds} × ${tokens}).`,
  );
});
