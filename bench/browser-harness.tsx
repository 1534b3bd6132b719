/**
 * What the Chromium rows share: render a component, then grow its input step by step and time each
 * step's main-thread work: the synchronous commit and layout (flushSync, then a layout read), plus
 * the render time of the commits that follow it (a virtualizer measuring and scrolling) until the
 * step is on screen. A row for another component (AgentThread) is one more call of `measureSteps`.
 */
import { Profiler, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';

export interface StepTimings {
  /** Each step's work, ms. */
  samples: number[];
  p50: number;
  p95: number;
  max: number;
}

export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

function nextFrame() {
  return new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
}

export interface Mounted<Props> {
  container: HTMLElement;
  root: Root;
  render: (props: Props) => void;
  /** Render time (ms) of commits since the last reset. */
  takeFollowUpMs: () => number;
  unmount: () => void;
}

/** Whether React runs its development build (it warns about a list without keys). */
export function reactBuild(): 'development' | 'production' {
  const original = console.error;
  let warned = false;
  console.error = () => {
    warned = true;
  };
  const container = document.createElement('div');
  const root = createRoot(container);
  flushSync(() => root.render([<i />, <i />]));
  root.unmount();
  console.error = original;
  return warned ? 'development' : 'production';
}

export async function mount<Props>(view: (props: Props) => ReactNode, props: Props) {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  let followUpMs = 0;
  const render = (next: Props) =>
    root.render(
      <Profiler
        id="bench"
        onRender={(_id, _phase, actualDuration) => (followUpMs += actualDuration)}
      >
        {view(next)}
      </Profiler>,
    );
  flushSync(() => render(props));
  for (let frame = 0; frame < 5; frame++) await nextFrame();
  const mounted: Mounted<Props> = {
    container,
    root,
    render,
    takeFollowUpMs: () => {
      const ms = followUpMs;
      followUpMs = 0;
      return ms;
    },
    unmount: () => {
      root.unmount();
      container.remove();
    },
  };
  return mounted;
}

/**
 * Renders `propsAt(1)`, `propsAt(2)` … `propsAt(steps)`; after each, waits (up to 30 frames, not
 * timed) until `isShown(step)`.
 */
export async function measureSteps<Props>(
  mounted: Mounted<Props>,
  steps: number,
  propsAt: (step: number) => Props,
  isShown: (step: number) => boolean,
): Promise<StepTimings & { notShown: number }> {
  const samples: number[] = [];
  let notShown = 0;
  for (let step = 1; step <= steps; step++) {
    const props = propsAt(step);
    mounted.takeFollowUpMs();
    const started = performance.now();
    flushSync(() => mounted.render(props));
    void mounted.container.getBoundingClientRect().height;
    const synchronousMs = performance.now() - started;
    const renderedInSync = mounted.takeFollowUpMs();
    let frames = 0;
    while (!isShown(step) && frames < 30) {
      await nextFrame();
      frames++;
    }
    if (!isShown(step)) notShown++;
    await nextFrame();
    // The synchronous part already includes its own render time: only later commits are added.
    void renderedInSync;
    samples.push(synchronousMs + mounted.takeFollowUpMs());
  }
  return {
    samples,
    p50: percentile(samples, 0.5),
    p95: percentile(samples, 0.95),
    max: Math.max(...samples),
    notShown,
  };
}
