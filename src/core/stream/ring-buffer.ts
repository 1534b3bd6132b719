/** The newest `capacity` items, O(1) per push (no `shift`, no copy); read with `toArray()`. */
export class RingBuffer<T> {
  #items: T[] = [];
  /** Where the oldest item is, once the buffer is full. */
  #start = 0;
  #capacity: number;

  constructor(capacity: number) {
    this.#capacity = Math.max(0, Math.floor(capacity));
  }

  get size(): number {
    return this.#items.length;
  }

  get capacity(): number {
    return this.#capacity;
  }

  push(item: T): void {
    if (this.#items.length < this.#capacity) {
      this.#items.push(item);
    } else if (this.#capacity > 0) {
      this.#items[this.#start] = item;
      this.#start = this.#start + 1 === this.#capacity ? 0 : this.#start + 1;
    }
  }

  /** Keeps the newest `capacity` items. */
  resize(capacity: number): void {
    const items = this.toArray();
    this.#capacity = Math.max(0, Math.floor(capacity));
    this.#items =
      items.length > this.#capacity ? items.slice(items.length - this.#capacity) : items;
    this.#start = 0;
  }

  /** A new array of the items, oldest first. */
  toArray(): T[] {
    const items = this.#items;
    if (this.#start === 0) return items.slice();
    const length = items.length;
    const copy = new Array<T>(length);
    for (let index = 0; index < length; index++) {
      copy[index] = items[(this.#start + index) % length] as T;
    }
    return copy;
  }
}
