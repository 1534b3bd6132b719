import { StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import axe from 'axe-core';
import {
  AgentHttpError,
  AgentNetworkError,
  AgentRunStatus,
  type AgentRunStatusProps,
} from 'agent-console-kit';

const url = 'http://127.0.0.1:1/agents/agent/runs';

function renderStrict(node: ReactNode) {
  return render(<StrictMode>{node}</StrictMode>);
}

function statusLine() {
  return screen.getByRole('status');
}

function httpError(status: number) {
  return new AgentHttpError({ status, url, method: 'POST', body: '' });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('given each status', () => {
  it('has no axe violations', async () => {
    const { container } = renderStrict(<AgentRunStatus status="streaming" attempt={1} />);
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it.each<[AgentRunStatusProps, string]>([
    [{ status: 'idle' }, 'Ready.'],
    [{ status: 'connecting', attempt: 1 }, 'Starting the run…'],
    [{ status: 'connecting', attempt: 3 }, 'Connecting (attempt 3)…'],
    [{ status: 'streaming', attempt: 1 }, 'Running…'],
    [
      { status: 'streaming', attempt: 2, restarts: 1 },
      'Running… The server started the run over once: the output shows the last attempt.',
    ],
    [{ status: 'reconnecting', attempt: 1 }, 'Reconnecting (attempt 2)…'],
    [{ status: 'done', startedAt: 1000, endedAt: 5200 }, 'Done in 4.2 s.'],
    [
      { status: 'done', startedAt: 0, endedAt: 1000, restarts: 2 },
      'Done in 1.0 s. The server started the run over 2 times: the output shows the last attempt.',
    ],
    [{ status: 'error' }, 'The run failed.'],
    [{ status: 'aborted' }, 'Stopped.'],
  ])('says %o as “%s” in a status region with data-status', (props, text) => {
    renderStrict(<AgentRunStatus {...props} className="mine" />);

    expect(statusLine().textContent).toBe(text);
    expect(statusLine()).toHaveAttribute('data-status', props.status);
    expect(statusLine()).toHaveClass('ack-run-status', 'mine');
  });
});

describe('given a run waiting to reconnect', () => {
  it.each<[string, AgentRunStatusProps['reconnectReason'], string]>([
    [
      'a dropped connection',
      new AgentNetworkError('terminated', { url }),
      'The connection broke off. Reconnecting (attempt 2)…',
    ],
    ['a 429', httpError(429), 'The service asked to wait (429). Reconnecting (attempt 2)…'],
    ['a 503', httpError(503), 'The service answered 503. Reconnecting (attempt 2)…'],
  ])('says why after %s', (_, reason, text) => {
    renderStrict(<AgentRunStatus status="reconnecting" attempt={1} reconnectReason={reason} />);

    expect(statusLine().textContent).toBe(text);
  });

  it('says how long it waits, once, without counting down', () => {
    vi.spyOn(Date, 'now').mockReturnValue(10_000);
    const { rerender } = renderStrict(
      <AgentRunStatus status="reconnecting" attempt={2} nextAttemptAt={12_500} />,
    );
    expect(statusLine().textContent).toBe('Reconnecting in 3 s (attempt 3)…');

    vi.spyOn(Date, 'now').mockReturnValue(11_900);
    rerender(
      <StrictMode>
        <AgentRunStatus status="reconnecting" attempt={2} nextAttemptAt={12_500} />
      </StrictMode>,
    );

    expect(statusLine().textContent).toBe('Reconnecting in 3 s (attempt 3)…');
  });

  it('says the device is offline, and follows the online event', () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderStrict(
      <AgentRunStatus
        status="reconnecting"
        attempt={1}
        reconnectReason={new AgentNetworkError('Failed to fetch', { url })}
      />,
    );
    expect(statusLine().textContent).toBe('You are offline. Reconnecting (attempt 2)…');
    expect(statusLine()).toHaveAttribute('data-offline', '');

    onLine.mockReturnValue(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });

    expect(statusLine().textContent).toBe('The connection broke off. Reconnecting (attempt 2)…');
    expect(statusLine()).not.toHaveAttribute('data-offline');
  });
});
