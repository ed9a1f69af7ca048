// The items a query names by an entity the pipeline extracted from their titles (items.addresses, items.parties): a
// street address or a range of numbers on one street (`163 Alhambra Street` names `162-164 Alhambra Street`), or a
// party's name (`Beresford` names `Beresford Corporation`). Item search ranks those items first and page search the
// pages they are printed on (namedPages), as for a file number: BM25 alone ranks a party's other mentions or a
// neighbouring number on the same street as high.
import {
  addressMentions,
  mentionsStreet,
  parseAddress,
  partyKey,
  type StreetNumbers,
} from '../../core/text/entities.ts';
import type { Release } from '../lake/release.ts';

interface Carrier {
  item: string;
  file: string;
}

/** An item carrying an entity the query names; `mention`: which of the query's entities (0, 1, … in its order). */
export interface NamedItem extends Carrier {
  mention: number;
}

interface EntityIndex {
  /** Addresses by their street's first word. */
  streets: Map<string, (StreetNumbers & Carrier)[]>;
  /** Party keys by their first word. */
  parties: Map<string, (Carrier & { key: string[] })[]>;
}

/** An entity carried by more files than this names no one thing (`State of California`): a query naming it pins nothing. */
const MAX_FILES = 20;

const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => (m.get(k) ?? m.set(k, []).get(k)!).push(v);

/** The release's extracted addresses and parties, by first word, read once per release. */
export function entityIndex(release: Release): Promise<EntityIndex> {
  return release.memo('entities', async () => {
    const rows = await release.pool.rows(
      'SELECT item_id, file_number, addresses, parties FROM items WHERE len(addresses) > 0 OR len(parties) > 0',
    );
    const index: EntityIndex = { streets: new Map(), parties: new Map() };
    for (const r of rows) {
      const carrier = { item: String(r.item_id), file: String(r.file_number) };
      for (const printed of (r.addresses as string[] | null) ?? []) {
        const a = parseAddress(printed);
        if (a) push(index.streets, a.street[0], { ...a, ...carrier });
      }
      for (const name of (r.parties as string[] | null) ?? []) {
        const key = partyKey(name).split(' ').filter(Boolean);
        if (key.length && key.join(' ').length >= 4) push(index.parties, key[0], { key, ...carrier });
      }
    }
    return index;
  });
}

/** The items (and their files) carrying an address or a party the query names, in the order it names them. */
export async function namedByEntities(release: Release, text: string): Promise<NamedItem[]> {
  const mentions = addressMentions(text);
  const words = partyKey(text).split(' ').filter(Boolean);
  if (mentions.length === 0 && words.length === 0) return [];
  const index = await entityIndex(release);
  const out = new Map<string, NamedItem>();
  let mention = 0;
  const add = (carriers: Carrier[]) => {
    if (carriers.length === 0 || new Set(carriers.map((c) => c.file)).size > MAX_FILES) return;
    for (const c of carriers) if (!out.has(c.item)) out.set(c.item, { item: c.item, file: c.file, mention });
    mention++;
  };
  for (const m of mentions) add((index.streets.get(m.street[0]) ?? []).filter((a) => mentionsStreet(m, a)));
  for (let i = 0; i < words.length;) {
    // The longest name beginning here: `State of California Department of Transportation`, not `State of California`.
    const named = (index.parties.get(words[i]) ?? []).filter((p) => p.key.every((k, j) => words[i + j] === k));
    const longest = Math.max(0, ...named.map((p) => p.key.length));
    add(named.filter((p) => p.key.length === longest));
    i += Math.max(1, longest);
  }
  return [...out.values()];
}
