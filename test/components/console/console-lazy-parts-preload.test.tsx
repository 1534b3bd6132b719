/**
 * The console's lazy form and thread list are preloaded before they first render (the parts alone
 * are in console-lazy-parts.test.tsx, replaced ones in console-lazy-parts-replaced.test.tsx). A
 * part's module loads once per file and stays loaded: this file holds one test, run while neither
 * is loaded.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMemoryThreadStore } from 'agent-console-kit';
import {
  eventLogAlone,
  formAlone,
  renderAlone,
  runHistoryAlone,
  settle,
  setUpConsoleServer,
  threadListAlone,
} from '../../support/lazy-console-parts.js';

const { server, renderConsole } = setUpConsoleServer();

describe('given the console’s lazy form and thread list', () => {
  it('preloads the form once the agent takes a form, the thread list once there is a threadStore, before either renders', async () => {
    // Neither part renders: the form agent's schemas and the chat agent are refused.
    server.inject('form-agent', { status: 403, endpoint: 'schemas' });
    server.inject('chat-agent', { status: 403, endpoint: 'agent' });
    renderConsole({ agentId: 'form-agent' });
    renderConsole({ agentId: 'chat-agent', threadStore: createMemoryThreadStore() });

    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    await settle();
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();

    // Both modules are there: each part renders in its first commit.
    renderAlone(formAlone());
    renderAlone(threadListAlone());
    expect(screen.getByRole('form', { name: 'Input alone' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Threads alone' })).toBeInTheDocument();
    // And the form agent's run history, which shows once a run has ended.
    renderAlone(runHistoryAlone());
    expect(screen.getByRole('heading', { name: 'Run history' })).toBeInTheDocument();
  });

  it('preloads the event log with showEventLog, before it renders (the console above loaded it nowhere)', async () => {
    server.inject('chat-agent', { status: 403, endpoint: 'agent' });
    renderConsole({ agentId: 'chat-agent', showEventLog: true });

    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(1));
    await settle();
    expect(screen.queryByRole('log', { name: 'Run events' })).toBeNull();

    renderAlone(eventLogAlone());
    expect(screen.getByRole('log', { name: 'Run events' })).toBeInTheDocument();
  });
});
