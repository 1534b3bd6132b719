import { render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { formFieldsFromSchema } from 'agent-console-kit';
// Internal: the console's lazy parts (the console itself is tested in agent-console*.test.tsx).
import { lazyEventLog, lazyRunHistory } from '../src/components/console-lazy-parts.js';

const fields = formFieldsFromSchema({
  type: 'object',
  properties: { topic: { type: 'string', title: 'Topic' } },
});

describe('given a lazy part of the console', () => {
  it('renders nothing until its module has loaded when it was not preloaded, then the part', async () => {
    const { container } = render(
      <StrictMode>
        <lazyEventLog.Part events={[]} status="streaming" />
      </StrictMode>,
    );
    expect(container).toBeEmptyDOMElement();
    expect(await screen.findByRole('log', { name: 'Run events' })).toBeInTheDocument();
  });

  it('renders a preloaded part in the first commit, with no fallback', async () => {
    // As the console does once it knows the part may come: before the part first renders.
    await lazyRunHistory.preload();
    render(
      <StrictMode>
        <lazyRunHistory.Part entries={[]} fields={fields} onRunAgain={() => {}} />
      </StrictMode>,
    );
    // Synchronously after render: a part that suspended would show nothing yet.
    expect(screen.getByRole('heading', { name: 'Run history' })).toBeInTheDocument();
  });
});
