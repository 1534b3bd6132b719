/**
 * The console's explanation of an error loads when the first error shows: a console whose
 * requests all succeed never loads it (the parts alone: console-lazy-parts.test.tsx; a failed run
 * explained: agent-console*.test.tsx). A part's module loads once per file and stays loaded: this
 * file's one test sees it unloaded after a run, then loaded by an error.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  errorMessageAlone,
  renderAlone,
  settle,
  setUpConsoleServer,
} from '../../support/lazy-console-parts.js';

const { server, renderConsole } = setUpConsoleServer();

describe('given the console’s explanation of an error', () => {
  it('is not loaded by a run that succeeded; it loads when an error first shows', async () => {
    const user = userEvent.setup();
    renderConsole({ agentId: 'chat-agent' });
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await user.type(box, 'Where is my laptop?{Enter}');
    await waitFor(() => expect(server.postCount('chat-agent')).toBe(1));
    expect(await screen.findByText(/Done/)).toBeInTheDocument();
    await settle();
    expect(screen.queryByRole('alert')).toBeNull();

    // The part alone shows nothing in its first commit: its module was not loaded.
    expect(renderAlone(errorMessageAlone())).toBeEmptyDOMElement();
    // It loads when it renders (the first error).
    expect(await screen.findByRole('alert')).toHaveTextContent('Not allowed');
  });
});
