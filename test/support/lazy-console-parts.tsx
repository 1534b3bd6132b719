/**
 * What the two tests of the console's lazy form and thread list share (each file holds one test:
 * a part's module loads once per file and stays loaded).
 */
import { StrictMode, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { AgentHttpError, createAgentClient, formFieldsFromSchema } from 'agent-console-kit';
import type { AgentConsoleProps } from 'agent-console-kit/console';
import { demoAgents } from 'agent-console-kit/testing';
import { setUpMockServer } from './mock-server.js';
// Internal: the console's lazy parts, to see whether their modules were loaded.
import {
  lazyErrorMessage,
  lazyEventLog,
  lazyInputForm,
  lazyRunHistory,
  lazyThreadList,
} from '../../src/components/console-lazy-parts.js';
import { renderAgentConsole } from './console.js';

/**
 * The demo agents' mock server for the file (its hooks registered), and a console rendered
 * against it under StrictMode, each with its own query client.
 */
export function setUpConsoleServer() {
  const server = setUpMockServer({ agents: demoAgents });
  const renderConsole = (props: AgentConsoleProps) => {
    renderAgentConsole(createAgentClient({ baseUrl: server.url }), props);
  };
  return { server, renderConsole };
}

/** One text field, for a form or run history alone. */
export const fields = formFieldsFromSchema({
  type: 'object',
  properties: { topic: { type: 'string', title: 'Topic' } },
});

/** Renders each part alone: what shows synchronously after render (nothing while it loads). */
export function renderAlone(part: ReactNode): HTMLElement {
  return render(<StrictMode>{part}</StrictMode>).container;
}

export const formAlone = () => (
  <lazyInputForm.Part fields={fields} aria-label="Input alone" onSubmit={() => {}} />
);
export const runHistoryAlone = () => (
  <lazyRunHistory.Part entries={[]} fields={fields} onRunAgain={() => {}} />
);
export const eventLogAlone = () => <lazyEventLog.Part events={[]} status="streaming" />;
export const threadListAlone = () => (
  <lazyThreadList.Part threads={[]} aria-label="Threads alone" onSelect={() => {}} />
);

/** Longer than loading a part's module takes here (it is in the module graph already). */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

/** The error's explanation alone, for a refused request (with its retry button). */
export const errorMessageAlone = (onRetry: () => void = () => {}) => (
  <lazyErrorMessage.Part
    error={
      new AgentHttpError({
        status: 403,
        url: 'http://127.0.0.1/rest/api/v1/agents/chat-agent/runs/stream',
        method: 'POST',
        body: '',
      })
    }
    onRetry={onRetry}
  />
);
