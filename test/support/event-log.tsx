import { StrictMode } from 'react';
import { render } from '@testing-library/react';
import { afterAll, beforeAll } from 'vitest';
import { AgentEventLog, type AgentEventLogProps, type RunEvent } from 'agent-console-kit';
import { classifyEvent } from 'agent-console-kit/core';
import type { RunEventArrival, RunEventFrame } from '../../src/core/stream/classify-event.js';

/** The run start the synthetic events count from. */
export const startedAt = Date.UTC(2026, 0, 1, 12, 0, 0);

/** A synthetic event, classified as the engine does: a `message` unless `data` says otherwise. */
export function messageEvent(
  sequence: number,
  overrides: Partial<RunEventFrame & RunEventArrival> = {},
): RunEvent {
  const payload = {
    messages: [{ role: 'GLEAN_AI', content: [{ type: 'text', text: `token ${sequence}` }] }],
  };
  return classifyEvent(
    { id: String(sequence), event: 'message', data: JSON.stringify(payload), ...overrides },
    { sequence, receivedAt: startedAt + sequence * 10, attempt: 1, restart: false, ...overrides },
  );
}

/** `count` message events from sequence `from`, each in the attempt `attemptOf` gives it. */
export function manyEvents(
  count: number,
  from = 1,
  attemptOf: (sequence: number) => number = () => 1,
): RunEvent[] {
  return Array.from({ length: count }, (_, index) =>
    messageEvent(from + index, { attempt: attemptOf(from + index) }),
  );
}

/** The log 300 px high under `<StrictMode>`; `rerender` takes the next props. */
export function renderLog(props: AgentEventLogProps) {
  const result = render(
    <StrictMode>
      <AgentEventLog startedAt={startedAt} height={300} {...props} />
    </StrictMode>,
  );
  const rerender = (next: AgentEventLogProps) =>
    result.rerender(
      <StrictMode>
        <AgentEventLog startedAt={startedAt} height={300} {...next} />
      </StrictMode>,
    );
  return { ...result, rerender };
}

/**
 * jsdom has no layout: for the tests of this file, the event log's scroller is `scrollerSize` px
 * high and wide and each of its rows 20 px high, so its virtual rows render.
 */
export function layOutEventLogs(scrollerSize: number) {
  const saved = {
    clientHeight: Object.getOwnPropertyDescriptor(Element.prototype, 'clientHeight'),
    clientWidth: Object.getOwnPropertyDescriptor(Element.prototype, 'clientWidth'),
    offsetHeight: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight'),
  };
  beforeAll(() => {
    for (const name of ['clientHeight', 'clientWidth'] as const) {
      Object.defineProperty(Element.prototype, name, {
        configurable: true,
        get(this: Element) {
          return this.classList.contains('ack-event-log__scroller') ? scrollerSize : 0;
        },
      });
    }
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('ack-event-log__item') ? 20 : 0;
      },
    });
  });
  afterAll(() => {
    for (const [name, descriptor] of Object.entries(saved)) {
      if (descriptor) {
        Object.defineProperty(
          name === 'offsetHeight' ? HTMLElement.prototype : Element.prototype,
          name,
          descriptor,
        );
      }
    }
  });
}
