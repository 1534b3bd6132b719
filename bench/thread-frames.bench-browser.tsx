/**
 * Chromium row of `npm run bench` (and all of `npm run bench:thread`): AgentThread with the
 * stylesheet loaded, while the last answer streams token by token. What the DOM keeps (element
 * count with 1,000 and with 2,000 messages, and after the streamed frames), and each token frame's
 * work (the commit and layout, plus any commit that follows it, until the token is on screen).
 * Writes node_modules/.cache/agent-console-kit-bench/thread.json for bench/run.js and prints the
 * figures. The thread as it ships (its default `visibleMessages`) is measured against the same
 * thread with every message shown (`visibleMessages={Infinity}`, the behaviour before the option)
 * in alternating rounds of the same run, so a loaded machine weighs on both alike.
 */
import { it } from 'vitest';
import { commands } from 'vitest/browser';
import 'agent-console-kit/styles.css';
import { AgentThread, type ConversationMessage } from 'agent-console-kit';
import { measureSteps, mount, percentile, reactBuild } from './browser-harness.js';

const count = 1000;
const frames = 100;
/** Rounds per variant, alternating; each round streams `frames` tokens into a fresh thread. */
const rounds = 3;

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
  /** undefined: the component's default. */
  visibleMessages: number | undefined;
}

const view = (props: ThreadProps) => (
  <AgentThread
    messages={props.messages}
    visibleMessages={props.visibleMessages}
    status="streaming"
    height={600}
    onRetry={() => undefined}
  />
);

/** Elements the thread keeps in the DOM with `length` messages. */
async function nodesWith(length: number, visibleMessages: number | undefined): Promise<number> {
  const mounted = await mount(view, { messages: thread(length), visibleMessages });
  const nodes = mounted.container.querySelectorAll('*').length;
  mounted.unmount();
  return nodes;
}

/** One round: a fresh thread of `count` messages, `frames` tokens streamed into its last answer. */
async function streamRound(visibleMessages: number | undefined) {
  let messages = thread(count);
  const mounted = await mount(view, { messages, visibleMessages });
  const nodesAtStart = mounted.container.querySelectorAll('*').length;
  const timings = await measureSteps(
    mounted,
    frames,
    (step) => {
      const last = messages[count - 1] as ConversationMessage;
      messages = [...messages.slice(0, -1), { ...last, text: `${last.text} token${step}` }];
      return { messages, visibleMessages };
    },
    (step) => (mounted.container.textContent ?? '').includes(`token${step}`),
  );
  const nodesAtEnd = mounted.container.querySelectorAll('*').length;
  mounted.unmount();
  return { nodesAtStart, nodesAtEnd, ...timings };
}

interface Variant {
  /** undefined: the component's default. */
  visibleMessages: number | undefined;
  nodesAtStart: number;
  nodesAtEnd: number;
  nodesAtTwice: number;
  samples: number[];
  notShown: number;
}

async function variant(visibleMessages: number | undefined): Promise<Variant> {
  return {
    visibleMessages,
    nodesAtStart: 0,
    nodesAtEnd: 0,
    nodesAtTwice: await nodesWith(count * 2, visibleMessages),
    samples: [],
    notShown: 0,
  };
}

function summary({ visibleMessages: _, ...variant }: Variant) {
  return {
    ...variant,
    p50: percentile(variant.samples, 0.5),
    p95: percentile(variant.samples, 0.95),
    max: Math.max(...variant.samples),
  };
}

it('measures AgentThread', async () => {
  const windowed = await variant(undefined);
  const allShown = await variant(Infinity);
  for (let round = 0; round < rounds; round++) {
    for (const measuring of [allShown, windowed]) {
      const measured = await streamRound(measuring.visibleMessages);
      measuring.nodesAtStart = measured.nodesAtStart;
      measuring.nodesAtEnd = Math.max(measuring.nodesAtEnd, measured.nodesAtEnd);
      measuring.samples.push(...measured.samples);
      measuring.notShown += measured.notShown;
    }
  }
  const shipped = summary(windowed);
  const everyMessage = summary(allShown);
  const result = {
    react: reactBuild(),
    messages: count,
    frames: frames * rounds,
    ...shipped,
    allShown: everyMessage,
  };
  const describe = (name: string, timings: ReturnType<typeof summary>) =>
    `${name}: ${timings.nodesAtStart} elements with ${count} messages, ` +
    `${timings.nodesAtTwice} with ${count * 2}, ${timings.nodesAtEnd} after the token frames; per frame ` +
    `p50 ${timings.p50.toFixed(1)} ms, p95 ${timings.p95.toFixed(1)} ms, max ${timings.max.toFixed(1)} ms` +
    (timings.notShown > 0 ? `, ${timings.notShown} not shown` : '');
  console.log(
    `AgentThread in Chromium (React ${result.react}), ${rounds} alternating rounds of ${frames} token frames\n` +
      `  ${describe('the default window (visibleMessages unset)', shipped)}\n` +
      `  ${describe('every message shown (visibleMessages={Infinity})', everyMessage)}`,
  );
  await commands.writeFile(
    'node_modules/.cache/agent-console-kit-bench/thread.json',
    JSON.stringify(result),
  );
});
