import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';

/**
 * A board's state for one page, in pieces each under a message's size (decision 069): the first
 * sync of a late joiner of a full board (12 MiB, a third more in base64) would otherwise be one
 * message of some 16 MB, over the room socket's 4 MB send backlog. Each piece is a Yjs update of
 * its own (format 1) of whole structs or slices of one (a run of strokes merged into one struct is
 * cut between strokes, as Yjs itself splits an item), in an order where what a piece builds on
 * (its left and right origins, its parent, the same client's earlier clocks) came in an earlier
 * piece, so the page integrates each at once rather than keeping it pending. The deletions go
 * last, in the sync step 2 that ends the first sync.
 */

type Struct = Y.Item | Y.GC;

/** A part of one struct: its elements `from` to `to` (for a GC, an item deleted or not, a run of strokes). */
type Slice = { client: number; clock: number; struct: Struct; from: number; to: number; bytes: number; needs: Y.ID[] };

/** A generous estimate of an element's size in an update (a stroke: its JSON is longer than lib0's encoding). */
const ELEMENT_OVERHEAD = 8;
/** A struct's own bytes (info, origins, a parent key) besides its content. */
const STRUCT_OVERHEAD = 64;

function elementSize(value: unknown): number {
  // A stroke (the bulk of a board): its points are at most 4 bytes each in lib0's encoding, the
  // rest (id, author, colour, width, the keys) under 160 bytes. Anything else: its JSON.
  const points = (value as { points?: unknown } | null)?.points;
  if (Array.isArray(points)) return 160 + points.length * 5;
  try {
    return (JSON.stringify(value)?.length ?? 4) + ELEMENT_OVERHEAD;
  } catch {
    return 1024;
  }
}

/** The struct's slices from element `start`, each at most `maxBytes` (one element may be more). */
function slicesOf(client: number, struct: Struct, start: number, maxBytes: number): Slice[] {
  const needs: Y.ID[] = [];
  if (struct instanceof Y.Item) {
    if (struct.origin) needs.push(struct.origin);
    if (struct.rightOrigin) needs.push(struct.rightOrigin);
    const parentItem = (struct.parent as { _item?: Y.Item | null } | null)?._item;
    if (parentItem) needs.push(parentItem.id);
  }
  const slice = (from: number, to: number, bytes: number): Slice => ({
    client,
    clock: struct.id.clock + from,
    struct,
    from,
    to,
    bytes,
    needs,
  });
  const content = struct instanceof Y.Item ? struct.content : null;
  if (!(content instanceof Y.ContentAny)) {
    // A GC or deleted run is a length only: one slice, small whatever its length.
    return [slice(start, struct.length, STRUCT_OVERHEAD)];
  }
  const slices: Slice[] = [];
  let from = start;
  let bytes = STRUCT_OVERHEAD;
  for (let index = start; index < struct.length; index++) {
    const size = elementSize(content.arr[index]);
    if (index > from && bytes + size > maxBytes) {
      slices.push(slice(from, index, bytes));
      from = index;
      bytes = STRUCT_OVERHEAD;
    }
    bytes += size;
  }
  slices.push(slice(from, struct.length, bytes));
  return slices;
}

/** Writes a slice as Yjs writes a struct from an offset; the end is cut by a copy of the content. */
function writeSlice(encoder: Y.UpdateEncoderV1, slice: Slice) {
  const { struct, from, to } = slice;
  if (struct instanceof Y.GC) {
    new Y.GC(Y.createID(slice.client, struct.id.clock), to).write(encoder, from);
    return;
  }
  if (to === struct.length) {
    struct.write(encoder, from);
    return;
  }
  const content =
    struct.content instanceof Y.ContentAny
      ? new Y.ContentAny(struct.content.arr.slice(0, to))
      : new Y.ContentDeleted(to);
  // The item as it is, but for its content's end (Item.write reads id, origins, parent and content).
  const cut = Object.create(struct, { content: { value: content } }) as Y.Item;
  cut.write(encoder, from);
}

/** One update of slices: per client, its slices (consecutive clocks), then an empty delete set. */
function encodePiece(slices: Slice[]): Uint8Array {
  const byClient = new Map<number, Slice[]>();
  for (const slice of slices) byClient.set(slice.client, [...(byClient.get(slice.client) ?? []), slice]);
  const encoder = new Y.UpdateEncoderV1();
  encoding.writeVarUint(encoder.restEncoder, byClient.size);
  for (const [client, own] of [...byClient].sort((a, b) => b[0] - a[0])) {
    encoding.writeVarUint(encoder.restEncoder, own.length);
    encoder.writeClient(client);
    encoding.writeVarUint(encoder.restEncoder, own[0]!.clock);
    for (const slice of own) writeSlice(encoder, slice);
  }
  encoding.writeVarUint(encoder.restEncoder, 0);
  return encoder.toUint8Array();
}

/**
 * What a page with `stateVector` lacks of `doc`, as updates of at most about `maxBytes` each
 * (a single stroke over it is a piece of its own), dependencies first, then the delete set as the
 * last one. Applied in order they make the same document as `Y.encodeStateAsUpdate(doc, stateVector)`.
 */
export function encodeStateAsPieces(doc: Y.Doc, stateVector: Uint8Array, maxBytes: number): Uint8Array[] {
  const known = Y.decodeStateVector(stateVector);
  const queues: Slice[][] = [];
  for (const [client, structs] of doc.store.clients as Map<number, Struct[]>) {
    const start = known.get(client) ?? 0;
    const last = structs[structs.length - 1];
    if (!last || last.id.clock + last.length <= start) continue;
    const queue: Slice[] = [];
    for (let index = start === 0 ? 0 : Y.findIndexSS(structs, start); index < structs.length; index++) {
      const struct = structs[index]!;
      queue.push(...slicesOf(client, struct, Math.max(0, start - struct.id.clock), maxBytes));
    }
    queues.push(queue.reverse());
  }

  // Each client's slices in clock order; one goes once what it builds on has gone (or was known).
  const delivered = new Map(known);
  const has = (id: Y.ID) => (delivered.get(id.client) ?? 0) > id.clock;
  const ordered: Slice[] = [];
  const take = (queue: Slice[]) => {
    const slice = queue.pop()!;
    ordered.push(slice);
    delivered.set(slice.client, slice.clock + slice.to - slice.from);
  };
  for (let left = queues.reduce((total, queue) => total + queue.length, 0); left > 0;) {
    let moved = false;
    for (const queue of queues) {
      while (queue.length > 0 && queue[queue.length - 1]!.needs.every(has)) {
        take(queue);
        left--;
        moved = true;
      }
    }
    // Not expected of a document Yjs made; the page keeps such a piece pending until the rest comes.
    if (!moved) {
      take(queues.find((queue) => queue.length > 0)!);
      left--;
    }
  }

  const pieces: Uint8Array[] = [];
  let current: Slice[] = [];
  let bytes = 0;
  for (const slice of ordered) {
    if (current.length > 0 && bytes + slice.bytes > maxBytes) {
      pieces.push(encodePiece(current));
      current = [];
      bytes = 0;
    }
    current.push(slice);
    bytes += slice.bytes;
  }
  if (current.length > 0) pieces.push(encodePiece(current));
  // The deletions (of structs the page had, too), no structs: the state vector is the document's own.
  pieces.push(Y.encodeStateAsUpdate(doc, Y.encodeStateVector(doc)));
  return pieces;
}
