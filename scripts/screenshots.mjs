// npm run screenshots [-- <filter> [--no-build]]: every story (or those whose id contains
// <filter>), light and dark, 1280 px and 360 px wide, into screenshots/ (ignored by git).
import { mkdirSync, readFileSync } from 'node:fs';
import {
  buildStorybook,
  launchChromium,
  serveStorybook,
  staticDir,
  waitForStory,
} from './storybook-static.mjs';

const args = process.argv.slice(2);
const filter = args.find((arg) => !arg.startsWith('--')) ?? '';
if (!args.includes('--no-build')) buildStorybook();

const index = JSON.parse(readFileSync(`${staticDir}/index.json`, 'utf8'));
const stories = Object.values(index.entries).filter(
  (entry) => entry.type === 'story' && entry.id.includes(filter),
);
mkdirSync('screenshots', { recursive: true });

const { server, origin } = await serveStorybook();
const browser = await launchChromium();
const failures = [];
try {
  for (const width of [1280, 360]) {
    for (const theme of ['light', 'dark']) {
      const context = await browser.newContext({
        viewport: { width, height: 800 },
        colorScheme: theme,
        deviceScaleFactor: 1,
      });
      const page = await context.newPage();
      for (const story of stories) {
        const name = `${story.id}--${theme}--${width}`;
        try {
          await page.goto(
            `${origin}/iframe.html?id=${story.id}&viewMode=story&globals=theme:${theme}`,
          );
          await waitForStory(page);
          // A full-page shot keeps the window's height: what `content-visibility: auto` skips
          // below it would be blank, where a person scrolling there sees it rendered.
          await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
          await page.waitForTimeout(150);
          await page.screenshot({ path: `screenshots/${name}.png`, fullPage: true });
        } catch (error) {
          failures.push(`${name}: ${error.message.split('\n')[0]}`);
        }
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
console.log(`${stories.length} stories × 4 into screenshots/`);
if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exitCode = 1;
}
