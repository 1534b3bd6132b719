import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AgentEventLog, type RunEvent } from 'agent-console-kit';
import { messageEvent, startedAt } from '../support/event-log.js';

const events: RunEvent[] = [
  messageEvent(1),
  messageEvent(2, { event: 'tool.call', data: '{"tool":"search"}' }),
  messageEvent(3),
];

afterEach(() => {
  vi.restoreAllMocks();
});

describe('given a page that lays out the parts of the log itself', () => {
  it('shares the filter of its own toolbar with its own header, with no viewport', async () => {
    const user = userEvent.setup();
    render(
      <StrictMode>
        <AgentEventLog.Root events={events} startedAt={startedAt} label="Tool calls">
          <AgentEventLog.Toolbar />
          <p>Between the toolbar and the header.</p>
          <AgentEventLog.Header headingLevel={2} />
        </AgentEventLog.Root>
      </StrictMode>,
    );

    expect(screen.getByRole('region', { name: 'Tool calls' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Tool calls' })).toBeInTheDocument();
    expect(screen.queryByRole('log')).not.toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Event' }), 'tool.call');
    expect(screen.getByText('Showing 1 of 3 events.')).toBeInTheDocument();
  });

  it('announces status changes only where the page puts the announcer', () => {
    const parts = (status: 'connecting' | 'streaming' | 'done') => (
      <StrictMode>
        <AgentEventLog.Root events={events} status={status}>
          <AgentEventLog.Header />
          <AgentEventLog.Announcer data-testid="announcer" />
          <AgentEventLog.Viewport />
        </AgentEventLog.Root>
      </StrictMode>
    );
    const { rerender } = render(parts('streaming'));
    rerender(parts('done'));

    expect(screen.getByTestId('announcer')).toHaveTextContent('Run finished: 3 events.');
    expect(screen.getByRole('log', { name: 'Run events' })).toBeInTheDocument();
  });

  it('names the root a part must be used in', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);

    expect(() => render(<AgentEventLog.Toolbar />)).toThrow(
      '<AgentEventLogToolbar> must be used within <AgentEventLogRoot>.',
    );
  });
});
