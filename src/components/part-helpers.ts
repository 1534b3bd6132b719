import {
  createContext,
  useContext,
  useMemo,
  type Context,
  type Ref,
  type RefCallback,
} from 'react';

/** Joins class names, skipping empty ones: `classNames('ack-x', className)`. */
export function classNames(...names: (string | false | null | undefined)[]): string | undefined {
  const joined = names.filter(Boolean).join(' ');
  return joined === '' ? undefined : joined;
}

/** A `data-*` flag: present (empty string) when true, absent when false (Radix style). */
export function dataFlag(value: boolean | undefined): '' | undefined {
  return value ? '' : undefined;
}

/**
 * A context for the parts of a compound component, whose hook throws a message naming the part
 * and the root it must be used in.
 */
export function createPartContext<Value>(
  rootName: string,
): [Context<Value | undefined>, (partName: string) => Value] {
  const PartContext = createContext<Value | undefined>(undefined);
  PartContext.displayName = `${rootName}Context`;
  function usePartContext(partName: string): Value {
    const value = useContext(PartContext);
    if (value === undefined) {
      throw new Error(`<${partName}> must be used within <${rootName}>.`);
    }
    return value;
  }
  return [PartContext, usePartContext];
}

/**
 * Gives a component its display name and returns it. A call (annotated pure where it is used)
 * rather than a `Component.displayName = …` statement, so a bundler drops an unused component.
 */
export function named<Component extends { displayName?: string | undefined }>(
  component: Component,
  displayName: string,
): Component {
  component.displayName = displayName;
  return component;
}

/**
 * Whether a key press in a composer's text area sends: Enter without Shift, and not the Enter that
 * ends an input method composition (Safari reports that one as keyCode 229).
 */
export function isSendKey(event: {
  key: string;
  shiftKey: boolean;
  keyCode: number;
  nativeEvent: { isComposing: boolean };
}): boolean {
  if (event.key !== 'Enter' || event.shiftKey) return false;
  return !(event.nativeEvent.isComposing || event.keyCode === 229);
}

/** Styles that hide an element visually and keep it for assistive technology. */
export const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

/** Sets a ref of any kind; returns what a callback ref returned (React 19 allows a cleanup). */
function setRef<Element>(ref: Ref<Element> | undefined, value: Element | null): unknown {
  if (typeof ref === 'function') return ref(value);
  if (ref !== null && ref !== undefined) (ref as { current: Element | null }).current = value;
  return undefined;
}

/**
 * One callback ref that sets every ref given (callback or object). A callback ref that returns a
 * cleanup (React 19) gets it called on detach; the others are set to null, on React 18 and 19.
 */
export function composeRefs<Element>(...refs: (Ref<Element> | undefined)[]): RefCallback<Element> {
  return (element) => {
    const cleanups = refs.map((ref) => {
      const cleanup = setRef(ref, element);
      return typeof cleanup === 'function' ? (cleanup as () => void) : undefined;
    });
    if (cleanups.every((cleanup) => cleanup === undefined)) return;
    // Returning a cleanup tells React 19 not to call this ref with null: detach every ref here.
    return () => {
      cleanups.forEach((cleanup, index) => {
        if (cleanup) cleanup();
        else setRef(refs[index], null);
      });
    };
  };
}

/** {@link composeRefs} as a hook: the same callback while both refs stay the same. */
export function useComposedRefs<Element>(
  first: Ref<Element> | undefined,
  second: Ref<Element> | undefined,
): RefCallback<Element> {
  return useMemo(() => composeRefs(first, second), [first, second]);
}
