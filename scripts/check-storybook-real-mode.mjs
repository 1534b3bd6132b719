// npm run check:storybook-real-mode: builds Storybook in real mode (STORYBOOK_AGENT_BASE_URL set,
// pointing at a port where nothing listens) and checks that msw is not started at all, that a
// mock-only story says so instead of failing (its play not run), and that "Console / Real deployment" offers the
// agent picker. Leaves a real-mode build in storybook-static/.
import { buildStorybook, launchChromium, serveStorybook } from './storybook-static.mjs';

process.env.STORYBOOK_AGENT_BASE_URL ??= 'http://127.0.0.1:9';
buildStorybook();
const { server, origin } = await serveStorybook();
const browser = await launchChromium();
const failures = [];
try {
  const page = await browser.newPage();
  const messages = [];
  page.on('console', (message) => messages.push(message.text()));

  // A mock-only story says so, and runs neither its beforeEach nor its play (a play would fail on
  // the notice, and Storybook logs the error).
  for (const id of [
    'console-agentconsole--chat-agent',
    'components-agentpicker--open',
    'conversation-agentthread--failed-turn-with-retry',
  ]) {
    const errors = [];
    const onConsole = (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        errors.push(message.text().split('\n')[0]);
      }
    };
    page.on('console', onConsole);
    await page.goto(`${origin}/iframe.html?id=${id}&viewMode=story`);
    await page
      .getByText('This story shows a scenario of the embedded mock agent service')
      .waitFor();
    await page.waitForTimeout(1500);
    page.off('console', onConsole);
    if (errors.length > 0) failures.push(`${id}: ${errors[0]}`);
  }

  await page.goto(`${origin}/iframe.html?id=console-real-deployment--console&viewMode=story`);
  await page.getByRole('combobox', { name: 'Agent' }).waitFor();
  await page.getByText('Choose an agent to start.').waitFor();

  const worker = await page.evaluate(() => navigator.serviceWorker?.controller?.scriptURL ?? null);
  if (worker !== null) failures.push(`a service worker controls the page: ${worker}`);
  const mswLines = messages.filter((text) => text.includes('[MSW]'));
  if (mswLines.length > 0) failures.push(`msw logged: ${mswLines[0]}`);
} catch (error) {
  failures.push(error instanceof Error ? error.message.split('\n')[0] : String(error));
} finally {
  await browser.close();
  server.close();
}
if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exitCode = 1;
} else {
  console.log('real mode: no msw, mock-only stories say so, the real story offers the picker');
}
