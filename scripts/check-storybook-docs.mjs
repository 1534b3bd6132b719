// npm run check:storybook-docs [-- --no-build]: the AgentConsole docs page renders every story at
// once (one msw worker for all of them); no story may show an error alert, except the story whose
// point is the error (NotFound). Fails with the stories that do.
import { buildStorybook, launchChromium, serveStorybook } from './storybook-static.mjs';

const expectedAlerts = new Set(['console-agentconsole--not-found']);
const docsId = 'console-agentconsole--docs';

if (!process.argv.includes('--no-build')) buildStorybook();
const { server, origin } = await serveStorybook();
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${origin}/iframe.html?id=${docsId}&viewMode=docs`);
  const anchors = page.locator('[id^="anchor--console-agentconsole--"]');
  await anchors.first().waitFor({ timeout: 30_000 });
  // Every story's console has loaded its agent (or failed to) when no "Loading" line is left.
  await page.waitForFunction(
    () => {
      const stories = [...document.querySelectorAll('[id^="anchor--console-agentconsole--"]')];
      return (
        stories.length > 0 &&
        stories.every((story) => story.querySelector('.ack-console') !== null) &&
        ![...document.querySelectorAll('.ack-console')].some((root) =>
          /Loading the agent/.test(root.textContent ?? ''),
        )
      );
    },
    undefined,
    { timeout: 30_000 },
  );
  const report = await page.evaluate(() =>
    [...document.querySelectorAll('[id^="anchor--console-agentconsole--"]')].map((anchor) => ({
      id: anchor.id.replace(/^anchor--/, ''),
      consoles: anchor.querySelectorAll('.ack-console').length,
      alerts: [...anchor.querySelectorAll('[role="alert"]')].map((alert) =>
        (alert.textContent ?? '').slice(0, 120),
      ),
    })),
  );
  const wrong = report.filter(
    (story) => story.consoles === 0 || story.alerts.length > 0 !== expectedAlerts.has(story.id),
  );
  console.log(`${report.length} stories on the AgentConsole docs page`);
  if (report.length < 10 || wrong.length > 0) {
    console.error(JSON.stringify(wrong, null, 2));
    process.exitCode = 1;
  } else {
    console.log('every story renders, and only NotFound shows an alert');
  }
} finally {
  await browser.close();
  server.close();
}
