import { StrictMode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { AgentRunOutput } from 'agent-console-kit';
import { AgentMarkdown, renderMarkdown, safeMarkdownUrl } from 'agent-console-kit/markdown';
import { hostileMarkdown, safeLinks } from '../support/markdown-corpus.js';

declare global {
  interface Window {
    __xssFired?: boolean;
  }
}

afterEach(() => {
  delete window.__xssFired;
});

function renderMarkdownStrict(text: string, linkTarget?: '_blank' | '_self') {
  return render(
    <StrictMode>
      <AgentMarkdown text={text} {...(linkTarget ? { linkTarget } : {})} />
    </StrictMode>,
  );
}

describe('given hostile Markdown', () => {
  it.each(hostileMarkdown)('renders no markup and no script link: %s', (text) => {
    const { container } = renderMarkdownStrict(text);

    expect(
      container.querySelector('script, img, iframe, object, embed, svg, style, details'),
    ).toBeNull();
    for (const link of container.querySelectorAll('a')) {
      // What the browser would follow: the href resolved against the page.
      const resolved = new URL(link.getAttribute('href') ?? '', window.location.href);
      expect(['http:', 'https:', 'mailto:']).toContain(resolved.protocol);
    }
    expect(container.querySelector('[onerror], [onload], [ontoggle]')).toBeNull();
    expect(window.__xssFired).toBeUndefined();
  });

  it('shows raw HTML as text rather than dropping it', () => {
    const { container } = renderMarkdownStrict('Before <script>window.__xssFired = true</script>');

    expect(container.textContent).toContain('<script>window.__xssFired = true</script>');
  });

  it('keeps the words of a dropped link', () => {
    renderMarkdownStrict('[click me](javascript:window.__xssFired=true)');

    expect(screen.getByText('click me').tagName).toBe('SPAN');
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('turns an image into a link, so nothing loads on its own', () => {
    renderMarkdownStrict('![tracker](https://tracker.example/pixel.png)');

    expect(screen.getByRole('link', { name: '[tracker]' })).toHaveAttribute(
      'href',
      'https://tracker.example/pixel.png',
    );
  });
});

describe('given safe links', () => {
  it.each(safeLinks)('keeps %s as a link that opens safely in a new tab', (text, href) => {
    renderMarkdownStrict(text);

    const link = screen.getByRole('link');
    expect(link).toHaveAttribute('href', href);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')?.split(' ')).toEqual(
      expect.arrayContaining(['noopener', 'noreferrer']),
    );
  });

  it('opens links in the same tab when asked, still with rel noopener noreferrer', () => {
    renderMarkdownStrict('[docs](https://example.com)', '_self');

    const link = screen.getByRole('link', { name: 'docs' });
    expect(link).toHaveAttribute('target', '_self');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  });
});

describe('given the URL filter', () => {
  it.each([
    ['javascript:alert(1)', undefined],
    [' JAVASCRIPT:alert(1)', undefined],
    ['java\u0000script:alert(1)', undefined],
    ['data:text/html,x', undefined],
    ['https://example.com', 'https://example.com'],
    ['mailto:a@example.com', 'mailto:a@example.com'],
    ['#section', '#section'],
  ])('%j → %j', (url, expected) => {
    expect(safeMarkdownUrl(url)).toBe(expected);
  });
});

describe('given Markdown in the output', () => {
  it('renders headings, lists, code and emphasis, with no axe violations', async () => {
    const { container } = render(
      <StrictMode>
        <AgentRunOutput
          text={'## Summary\n\n- **one**\n- `two`\n\n[docs](https://example.com)'}
          status="done"
          renderText={renderMarkdown}
        />
      </StrictMode>,
    );

    expect(screen.getByRole('heading', { name: 'Summary' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(container.querySelector('strong')?.textContent).toBe('one');
    expect(container.querySelector('code')?.textContent).toBe('two');
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });
});
