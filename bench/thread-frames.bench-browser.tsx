/**
 * Chromium row of `npm run bench` (and all of `npm run bench:thread`): AgentThread with the
 * stylesheet loaded, while the last answer streams token by token. What the DOM keeps (element
 * count with 1,000 and with 2,000 messages, and after the streamed frames), and each token frame's
 * work (the commit and layout, plus any commit that follows it, until the token is on screen).
 * Writes node_modules/.cache/agent-console-kit-bench/thread.json for bench/run.js and prints the
 * figures.
 */
import { it } from 'vitest';
import { commands } from 'vitest/browser';
import 'agent-console-kit/styles.css';
import { AgentThread, type ConversationMessage } from 'agent-console-kit';
import { measureSteps, mount, reactBuild } from './browser-harness.js';

const count = 1000;
const frames = 100;

function thread(length: number): ConversationMessage[] {
  return Array.from({ length }, (_, index): ConversationMessage => ({
    id: `m${index}`,
    role: index % 2 === 0 ? 'USER' : 'GLEAN_AI',
    text: `Message ${index}: ${'some words of a message, '.repeat(1 + (index % 7))}`,
    status: index === length - 1 ? 'streaming' : 'done',
    createdAt: index,
  }));
}

interface ThreadProps {
  messages: ConversationMessage[];
}

const view = (props: ThreadProps) => (
  <AgentThread
    messages={props.messages}
    status="streaming"
    height={600}
    onRetry={() => undefined}
  />
);

/** Elements the thread keeps in the DOM with `length` messages. */
async function nodesWith(length: number): Promise<number> {
  const mounted = await mount(view, { messages: thread(length) });
  const nodes = mounted.container.querySelectorAll('*').length;
  mounted.unmount();
  return nodes;
}

it('measures AgentThread', async () => {
  const nodesAtTwice = await nodesWith(count * 2);
  let messages = thread(count);
  const mounted = await mount(view, { messages });
  const nodesAtStart = mounted.container.querySelectorAll('*').length;
  const timings = await measureSteps(
    mounted,
    frames,
    (step) => {
      const last = messages[count - 1] as ConversationMessage;
      messages = [...messages.slice(0, -1), { ...last, text: `${last.text} token${step}` }];
      return { messages };
    },
    (step) => (mounted.container.textContent ?? '').includes(`token${step}`),
  );
  const nodesAtEnd = mounted.container.querySelectorAll('*').length;
  mounted.unmount();
  const result = {
    react: reactBuild(),
    messages: count,
    frames,
    nodesAtStart,
    nodesAtEnd,
    nodesAtTwice,
    ...timings,
  };
  console.log(
    `AgentThread in Chromium (React ${result.react}): ${nodesAtStart} elements with ${count} messages, ` +
      `${nodesAtTwice} with ${count * 2}, ${nodesAtEnd} after ${frames} token frames; per frame ` +
      `p50 ${timings.p50.toFixed(1)} ms, p95 ${timings.p95.toFixed(1)} ms, max ${timings.max.toFixed(1)} ms` +
      (timings.notShown > 0 ? `, ${timings.notShown} not shown` : ''),
  );
  await commands.writeFile(
    'node_modules/.cache/agent-console-kit-bench/thread.json',
    JSON.stringify(result),
  );
});
