/**
 * The console's lazy form and thread list when the app replaced them: never loaded (the parts
 * alone are in console-lazy-parts.test.tsx, their preload in console-lazy-parts-preload.test.tsx).
 * A part's module loads once per file and stays loaded: this file holds one test, run while
 * neither is loaded.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  createMemoryThreadStore,
  type AgentInputFormProps,
  type AgentThreadListProps,
} from 'agent-console-kit';
import {
  formAlone,
  renderAlone,
  settle,
  setUpConsoleServer,
  threadListAlone,
} from '../../support/lazy-console-parts.js';

const { renderConsole } = setUpConsoleServer();

describe('given the console’s lazy form and thread list', () => {
  it('loads neither when the app replaced them through components (not even a preload)', async () => {
    function OwnForm({ fields: formFields }: AgentInputFormProps) {
      return <p data-testid="own-form">{formFields?.map((field) => field.label).join(', ')}</p>;
    }
    function OwnThreadList({ selectedThreadId }: AgentThreadListProps) {
      return <p data-testid="own-thread-list">{selectedThreadId}</p>;
    }
    renderConsole({ agentId: 'form-agent', components: { InputForm: OwnForm } });
    renderConsole({
      agentId: 'chat-agent',
      threadStore: createMemoryThreadStore(),
      threadId: 'thread-1',
      components: { ThreadList: OwnThreadList },
    });

    expect(await screen.findByTestId('own-form')).toHaveTextContent('Title');
    expect(await screen.findByTestId('own-thread-list')).toHaveTextContent('thread-1');
    await screen.findByRole('textbox', { name: 'Message' });
    await settle();
    expect(screen.queryByRole('navigation')).toBeNull();

    // Neither module was loaded: each part shows nothing at first, then loads when it renders.
    expect(renderAlone(formAlone())).toBeEmptyDOMElement();
    expect(renderAlone(threadListAlone())).toBeEmptyDOMElement();
    expect(await screen.findByRole('form', { name: 'Input alone' })).toBeInTheDocument();
    expect(await screen.findByRole('navigation', { name: 'Threads alone' })).toBeInTheDocument();
  });
});
