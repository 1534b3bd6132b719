/** Byte arrays joined into one (the one itself when alone: no copy). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  if (parts.length === 1) return parts[0] as Uint8Array<ArrayBuffer>;
  let length = 0;
  for (const part of parts) length += part.length;
  const result = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    result.set(part, offset);
    offset += part.length;
  }
  return result;
}
