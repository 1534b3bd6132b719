/**
 * The console loads its explanation of an error as soon as it sends a run, before any run fails:
 * an error that ends the run (the network gone with it) is explained at once. A part's module
 * loads once per file and stays loaded: this file's one test sees it loaded by a run.
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

describe('given a console that sent a run', () => {
  it('has the explanation of an error loaded, though the run succeeded', async () => {
    const user = userEvent.setup();
    renderConsole({ agentId: 'chat-agent' });
    const box = await screen.findByRole('textbox', { name: 'Message' });

    await user.type(box, 'Where is my laptop?{Enter}');
    await waitFor(() => expect(server.postCount('chat-agent')).toBe(1));
    expect(await screen.findByText(/Done/)).toBeInTheDocument();
    await settle();
    expect(screen.queryByRole('alert')).toBeNull();

    // The part alone is there in its first commit: its module was loaded.
    renderAlone(errorMessageAlone());
    expect(screen.getByRole('alert')).toHaveTextContent('Not allowed');
  });
});
