/** The part of a node:http response (or any writable) a wait for its buffer to empty needs. */
export interface DrainingWritable {
  on(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

/** Resolves when a writable that refused more bytes can take them again, or has closed. */
export function waitForDrain(outgoing: DrainingWritable): Promise<void> {
  return new Promise<void>((resolve) => {
    const settle = () => {
      outgoing.off('drain', settle);
      outgoing.off('close', settle);
      resolve();
    };
    outgoing.on('drain', settle);
    outgoing.on('close', settle);
  });
}
