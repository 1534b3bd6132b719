import { useCallback, useEffect, useRef, type RefObject } from 'react';

/**
 * Moves focus as a form run starts and ends (a view concern: the controller knows nothing of it).
 * When a run started from a control (`rememberOrigin` was called before `start`) becomes active,
 * that control is disabled: focus goes to Stop, if it was lost. When the run ends, focus goes back
 * to the control that started it, if focus was lost or is on Stop. A run started otherwise (Retry,
 * which goes away) moves nothing. Returns `rememberOrigin`.
 */
export function useFocusIntent(
  active: boolean,
  stopRef: RefObject<HTMLButtonElement | null>,
): () => void {
  const originRef = useRef<HTMLElement | null>(null);
  const wasActiveRef = useRef(active);
  const rememberOrigin = useCallback(() => {
    const focused = document.activeElement;
    originRef.current =
      focused instanceof HTMLElement && focused !== document.body ? focused : null;
  }, []);
  useEffect(() => {
    if (active === wasActiveRef.current) return;
    wasActiveRef.current = active;
    const origin = originRef.current;
    if (origin === null) return;
    const focused = document.activeElement;
    const focusLost =
      focused === null || focused === document.body || (focused as HTMLButtonElement).disabled;
    if (active) {
      if (focusLost) stopRef.current?.focus();
      return;
    }
    originRef.current = null;
    if (
      origin.isConnected &&
      !(origin as HTMLButtonElement).disabled &&
      (focusLost || focused === stopRef.current)
    ) {
      origin.focus();
    }
  }, [active, stopRef]);
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
