import { useCallback, useEffect, useRef, type RefObject } from 'react';
import type { AgentConsoleFocusIntent } from '../core/console/agent-console-controller.js';

/**
 * Acts on the console's focus intents: Stop when the control that started a run is disabled, then
 * back to that control when the run ends (if focus was lost, or is on Stop). Returns the function
 * that remembers the control starting a run (call it before `start`).
 */
export function useFocusIntent(
  focus: AgentConsoleFocusIntent,
  stopRef: RefObject<HTMLButtonElement | null>,
): () => void {
  const originRef = useRef<HTMLElement | null>(null);
  const rememberOrigin = useCallback(() => {
    const focused = document.activeElement;
    originRef.current =
      focused instanceof HTMLElement && focused !== document.body ? focused : null;
  }, []);
  const { target, version } = focus;
  useEffect(() => {
    if (target === undefined) return;
    const focused = document.activeElement;
    const focusLost =
      focused === null || focused === document.body || (focused as HTMLButtonElement).disabled;
    if (target === 'stop') {
      if (focusLost && originRef.current !== null) stopRef.current?.focus();
      return;
    }
    const origin = originRef.current;
    originRef.current = null;
    if (
      origin?.isConnected &&
      !(origin as HTMLButtonElement).disabled &&
      (focusLost || focused === stopRef.current)
    ) {
      origin.focus();
    }
  }, [target, version, stopRef]);
  return rememberOrigin;
}

/** Focuses the picker's combobox once after a choice remounted the console (`refocus` set). */
export function usePickerRefocus(
  refocus: { current: boolean } | undefined,
  pickerRef: RefObject<HTMLDivElement | null>,
): void {
  useEffect(() => {
    if (refocus?.current !== true) return;
    refocus.current = false;
    pickerRef.current?.querySelector<HTMLInputElement>('[role="combobox"]')?.focus();
  }, [refocus, pickerRef]);
}
