/** Hostile Markdown, each entry a way to smuggle markup or a script URL through the renderer. */
export const hostileMarkdown: readonly string[] = [
  '<script>window.__xssFired = true</script>',
  '<img src=x onerror="window.__xssFired = true">',
  '<iframe src="javascript:window.__xssFired=true"></iframe>',
  '<a href="javascript:window.__xssFired=true">raw link</a>',
  '<svg onload="window.__xssFired = true"></svg>',
  '<style>body { display: none }</style>',
  '<details open ontoggle="window.__xssFired = true">x</details>',
  '[plain](javascript:window.__xssFired=true)',
  '[case](JaVaScRiPt:window.__xssFired=true)',
  '[entity](&#106;avascript:window.__xssFired=true)',
  '[hex entity](&#x6A;avascript:window.__xssFired=true)',
  '[tab](<java\tscript:window.__xssFired=true>)',
  '[data](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3NGaXJlZD10cnVlPC9zY3JpcHQ+)',
  '[vbscript](vbscript:msgbox(1))',
  '[file](file:///etc/passwd)',
  '<javascript:window.__xssFired=true>',
  '[ref][evil]\n\n[evil]: javascript:window.__xssFired=true',
  '![pixel](javascript:window.__xssFired=true)',
  '![tracker](https://tracker.example/pixel.png)',
  '```html\n<script>window.__xssFired = true</script>\n```',
  '`<img src=x onerror="window.__xssFired = true">`',
];

/** Links that must stay links, with their href. */
export const safeLinks: readonly [markdown: string, href: string][] = [
  ['[docs](https://example.com/docs)', 'https://example.com/docs'],
  ['[mail](mailto:help@example.com)', 'mailto:help@example.com'],
  ['<https://example.com/auto>', 'https://example.com/auto'],
  ['[relative](/agents/1)', '/agents/1'],
];
