import { userEvent, within } from 'storybook/test';

/** Fills the demo "Project intake" form (its required fields) and presses Run. */
export async function runProjectIntake(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await userEvent.type(
    await canvas.findByLabelText(/^Title/, {}, { timeout: 5000 }),
    'New website',
  );
  await userEvent.type(canvas.getByLabelText(/^Due date/), '2026-12-01');
  await userEvent.click(canvas.getByRole('button', { name: 'Run' }));
}
