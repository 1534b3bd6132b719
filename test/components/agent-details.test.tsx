import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import axe from 'axe-core';
import { AgentDetails, type Agent } from 'agent-console-kit';

const agent: Agent = {
  agent_id: 'researcher',
  name: 'Researcher',
  description: 'Finds things out',
  capabilities: { 'ap.io.messages': true, 'ap.io.streaming': false, 'ap.io.future': 'soon' },
};

function renderDetails(props: Parameters<typeof AgentDetails>[0]) {
  return render(
    <StrictMode>
      <AgentDetails {...props} />
    </StrictMode>,
  );
}

describe('given an agent record', () => {
  it('has no axe violations', async () => {
    const { container } = renderDetails({ agent });
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('shows the name as a heading that labels the region, the description, id and capabilities', () => {
    renderDetails({ agent, headingLevel: 3 });

    const region = screen.getByRole('region', { name: 'Researcher' });
    expect(within(region).getByRole('heading', { level: 3, name: 'Researcher' })).toBeVisible();
    expect(within(region).getByText('Finds things out')).toBeVisible();
    expect(within(region).getByText('researcher')).toBeVisible();
    const capabilities = within(region)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(capabilities).toEqual([
      'Takes messages: yes',
      'Streams its output: no',
      'ap.io.future: soon',
    ]);
  });

  it('says so when no capability is declared', () => {
    renderDetails({ agent: { agent_id: 'bare', name: 'Bare' } });

    expect(screen.getByText('None declared')).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Bare' })).toBeVisible();
  });
});

describe('given markup in the agent record', () => {
  it('shows it as text and creates no element from it', () => {
    const payloads = {
      agent_id: '<script>window.__xss = 1</script>',
      name: '<img src=x onerror="window.__xss = 1">',
      description: 'javascript:window.__xss=1',
      capabilities: { '<b>bold</b>': '<i>x</i>' },
    };
    const { container } = renderDetails({ agent: payloads });

    expect(screen.getByRole('heading', { name: payloads.name })).toBeVisible();
    expect(screen.getByText(payloads.agent_id)).toBeVisible();
    expect(container.querySelector('img, script, b, i, a')).toBeNull();
    expect((window as { __xss?: number }).__xss).toBeUndefined();
  });
});
