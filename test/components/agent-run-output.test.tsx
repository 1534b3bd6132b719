import { StrictMode, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { AgentRunOutput, type RunStatus } from 'agent-console-kit';

function renderStrict(node: ReactNode) {
  return render(<StrictMode>{node}</StrictMode>);
}

describe('given no output yet', () => {
  it('has no axe violations', async () => {
    const { container } = renderStrict(<AgentRunOutput text="" />);
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('shows the placeholder in a labelled region', () => {
    renderStrict(<AgentRunOutput text="" />);

    const region = screen.getByRole('region', { name: 'Agent output' });
    expect(region).toHaveTextContent('No output yet.');
    expect(region).toHaveAttribute('data-empty', '');
    expect(region).toHaveAttribute('data-status', 'idle');
    expect(region).not.toHaveAttribute('aria-busy');
  });
});

describe('given streamed text', () => {
  it('has no axe violations', async () => {
    const { container } = renderStrict(<AgentRunOutput text="Hello" status="streaming" />);
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('keeps whitespace and line breaks', () => {
    const text = 'Line one\n  indented line\n\n\ttab';
    renderStrict(<AgentRunOutput text={text} status="done" className="mine" />);

    const region = screen.getByRole('region', { name: 'Agent output' });
    expect(region.textContent).toBe(text);
    expect(region).toHaveStyle({ whiteSpace: 'pre-wrap' });
    expect(region).toHaveClass('ack-run-output', 'mine');
    expect(region).not.toHaveAttribute('data-empty');
  });

  it.each<[RunStatus, boolean]>([
    ['connecting', true],
    ['streaming', true],
    ['reconnecting', true],
    ['done', false],
    ['error', false],
    ['aborted', false],
    ['idle', false],
  ])('is aria-busy while %s: %s', (status, busy) => {
    renderStrict(<AgentRunOutput text="Hello" status={status} />);

    const region = screen.getByRole('region', { name: 'Agent output' });
    if (busy) expect(region).toHaveAttribute('aria-busy', 'true');
    else expect(region).not.toHaveAttribute('aria-busy');
    expect(region).toHaveAttribute('data-status', status);
  });

  it('shows markup as text', () => {
    const text =
      '<img src=x onerror="window.__outputXss = 1"><script>window.__outputXss = 1</script>';
    const { container } = renderStrict(<AgentRunOutput text={text} status="done" />);

    expect(screen.getByRole('region', { name: 'Agent output' }).textContent).toBe(text);
    expect(container.querySelector('img, script')).toBeNull();
    expect((window as { __outputXss?: number }).__outputXss).toBeUndefined();
  });
});
