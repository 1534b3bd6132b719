import { useCallback, useEffect, useRef } from 'react';

/**
 * Copies text to the clipboard and tells `onDone` whether it was copied, only while the component
 * is still mounted (the browser may answer after it has gone).
 */
export function useCopyText(): (text: string, onDone: (copied: boolean) => void) => Promise<void> {
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return useCallback(async (text: string, onDone: (copied: boolean) => void) => {
    let copied = true;
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      copied = false;
    }
    if (mounted.current) onDone(copied);
  }, []);
}
