/**
 * The console's explanation of an error loads only once the console may need it: a run sent or a
 * request failed (a run sending it: console-lazy-error-message-preload.test.tsx; the parts alone:
 * console-lazy-parts.test.tsx). A part's module loads once per file and stays loaded: this file's
 * one test sees it unloaded.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  errorMessageAlone,
  renderAlone,
  settle,
  setUpConsoleServer,
} from '../../support/lazy-console-parts.js';

const { renderConsole } = setUpConsoleServer();

describe('given the console’s explanation of an error', () => {
  it('is not loaded while nothing failed and nothing was sent; it loads when it first renders', async () => {
    renderConsole({ agentId: 'chat-agent' });
    await screen.findByRole('textbox', { name: 'Message' });
    await settle();

    // The part alone shows nothing in its first commit: its module was not loaded.
    expect(renderAlone(errorMessageAlone())).toBeEmptyDOMElement();
    // It loads when it renders (a request that failed before any run: the agent's, say).
    expect(await screen.findByRole('alert')).toHaveTextContent('Not allowed');
  });
});
