// One document's pages → items, roll calls, recorded positions, public comments and the problems met on the way.
import type { DocumentKind } from '../../core/lake/format.ts';
import { commentId, itemId, positionId, rollCallId, supervisorId } from '../../core/lake/ids.ts';
import { classifyAction, printedResult } from '../enrich/actions.ts';
import { extractEntities } from '../enrich/entities.ts';
import { resolveName } from '../enrich/supervisors.ts';
import type { PageText } from '../extract/pages.ts';
import type {
  CommentRecord,
  ItemRecord,
  ParsedDocument,
  PositionRecord,
  Problem,
  RollCallRecord,
  SupervisorRecord,
} from '../records.ts';
import { flatten, isHeading, type Segment, segment } from './blocks.ts';
import { findSpeakers } from './comments.ts';
import { parseItemFields } from './item.ts';
import { meetingFacts, meetingRoster } from './meeting.ts';
import { findVotes, type Vote } from './rollcalls.ts';

export interface DocumentInfo {
  id: string;
  meetingDate: string;
  kind: DocumentKind;
}

const FILE_REF = /\bFile No\.\s*(\d{6})\b/;

export function parseDocument(doc: DocumentInfo, pages: PageText[], roster: SupervisorRecord[]): ParsedDocument {
  const year = Number(doc.meetingDate.slice(0, 4));
  const problems: Problem[] = [];
  const lines = flatten(pages);
  const members = meetingRoster(lines);
  const segments = segment(lines);

  // Items, each with its own votes in order.
  const items: ItemRecord[] = [];
  const votesOf = new Map<ItemRecord, { vote: Vote; order: number; shared: boolean; action: string }[]>();
  const seen = new Map<string, number>();
  const itemAt = new Map<number, ItemRecord>(); // segment index → item
  for (const seg of segments) {
    if (seg.kind !== 'item') continue;
    const f = parseItemFields(seg.lines);
    const n = (seen.get(seg.fileNumber) ?? 0) + 1;
    seen.set(seg.fileNumber, n);
    const { extracted, unitMentions } = extractEntities(f.title, f.longTitle);
    const item: ItemRecord = {
      id: itemId(doc.id, seg.fileNumber, n),
      documentId: doc.id,
      meetingDate: doc.meetingDate,
      year,
      kind: doc.kind,
      fileNumber: seg.fileNumber,
      title: f.title,
      sponsors: f.sponsors,
      longTitle: f.longTitle,
      matter: f.matter,
      itemType: f.itemType,
      section: seg.section,
      startPage: seg.lines[0].page,
      endPage: seg.lines[seg.lines.length - 1].page,
      text: seg.lines.map((l) => l.text).join('\n'),
      enactmentNumbers: f.enactmentNumbers,
      statusLines: f.statusLines,
      extracted,
      unitMentions,
    };
    items.push(item);
    itemAt.set(seg.index, item);
    votesOf.set(item, []);
    if (f.longTitle === '')
      problems.push({
        documentId: doc.id,
        page: item.startPage,
        kind: 'unparsed-block',
        detail: `${item.fileNumber}: no long title found`,
      });

    for (const vote of findVotes(seg.lines)) {
      if (!vote.shared) {
        votesOf.get(item)!.push({ vote, order: seg.index * 1000 + vote.at, shared: false, action: vote.action });
        continue;
      }
      // A shared vote closes a consent / for-adoption run: every item back to the run's heading that has no vote of its own.
      for (const member of sharedRun(segments, seg.index, itemAt, votesOf)) {
        const own = parseItemFields(segments[member.segIndex].lines).lastAction ?? vote.action;
        votesOf.get(member.item)!.push({ vote, order: member.segIndex * 1000 + vote.at, shared: true, action: own });
      }
    }
  }

  // Votes outside any item: a motion naming a file belongs to that file; anything else is reported.
  for (const seg of segments) {
    if (seg.kind !== 'loose') continue;
    for (const vote of findVotes(seg.lines)) {
      const ref = FILE_REF.exec(vote.rawAction)?.[1];
      const target = ref ? nearestItem(items, itemAt, segments, seg.index, ref) : null;
      if (target)
        votesOf.get(target)!.push({ vote, order: seg.index * 1000 + vote.at, shared: false, action: vote.action });
      else
        problems.push({
          documentId: doc.id,
          page: vote.page,
          kind: 'unparsed-block',
          detail: `roll call outside any legislative file, not recorded as a roll call: ${vote.action}`,
        });
    }
  }

  const rollCalls: RollCallRecord[] = [];
  const positions: PositionRecord[] = [];
  const reported = new Set<Vote>();
  for (const item of items) {
    const list = votesOf.get(item)!.sort((a, b) => a.order - b.order);
    const calls = list.map(({ vote, shared, action }, k) => {
      const { actionType, isFinal, rule } = classifyAction(action, item.itemType);
      const rc: RollCallRecord = {
        id: rollCallId(item.id, k + 1),
        itemId: item.id,
        documentId: doc.id,
        meetingDate: doc.meetingDate,
        year,
        fileNumber: item.fileNumber,
        sequence: k + 1,
        action,
        actionType,
        // A shared vote's own text is the block's `The foregoing items were acted upon`: the item's action line says.
        result: printedResult(shared ? action : vote.rawAction),
        isFinal,
        rescindedBy: null,
        page: vote.page,
        ayes: vote.ayes,
        noes: vote.noes,
        absent: vote.absent,
        excused: vote.excused,
        declaredCounts: vote.declaredCounts,
        countMismatch: vote.countMismatch,
        sharedVote: shared,
      };
      if (!rule)
        problems.push({
          documentId: doc.id,
          page: vote.page,
          kind: 'unclassified-action',
          detail: `${rc.id}: ${action}`,
        });
      if (vote.countMismatch && !reported.has(vote)) {
        reported.add(vote);
        problems.push({
          documentId: doc.id,
          page: vote.page,
          kind: 'count-mismatch',
          detail: `${rc.id}${shared ? ' (shared vote)' : ''}: declared ${JSON.stringify(vote.declaredCounts)}, names ${[vote.ayes, vote.noes, vote.absent, vote.excused].map((a) => a.length).join('/')}`,
        });
      }
      return rc;
    });
    markRescinded(calls);
    for (const rc of calls) {
      rollCalls.push(rc);
      for (const position of ['ayes', 'noes', 'absent', 'excused'] as const) {
        for (const name of rc[position]) {
          const r = resolveName(name, doc.meetingDate, roster, members);
          if (r.status !== 'resolved')
            problems.push({
              documentId: doc.id,
              page: rc.page,
              kind: r.status === 'ambiguous' ? 'ambiguous-name' : 'unresolved-name',
              detail: `${rc.id}: '${name}'${r.candidates.length ? ` (${r.candidates.map((c) => c.id).join(', ')})` : ''}`,
            });
          positions.push({
            id: positionId(rc.id, r.id ?? supervisorId(name)),
            rollCallId: rc.id,
            itemId: item.id,
            documentId: doc.id,
            meetingDate: doc.meetingDate,
            year,
            fileNumber: item.fileNumber,
            page: rc.page,
            supervisorId: r.id,
            nameAsRecorded: name,
            position: position === 'ayes' ? 'aye' : position === 'noes' ? 'no' : position,
            action: rc.action,
            actionType: rc.actionType,
            isFinal: rc.isFinal,
            rescindedBy: rc.rescindedBy,
          });
        }
      }
    }
  }

  const comments = doc.kind === 'minutes' ? parseComments(doc, year, segments, itemAt, problems) : [];
  return { facts: { ...meetingFacts(lines, doc.kind), members }, items, rollCalls, positions, comments, problems };
}

/** Printed outcomes that say a rescission or reconsideration carried. */
const CARRIED = new Set<RollCallRecord['result']>(['carried', 'rescinded', 'reconsidered']);

/**
 * A rescission or reconsideration that carried undoes the item's roll call immediately before it: that vote keeps its
 * record and action type, names the later one in `rescindedBy` and is no longer final. Carried: a printed outcome that
 * says so (`The motion carried`, `RESCINDED`, `RECONSIDERED`), or, when no outcome is printed, more ayes than noes.
 */
export function markRescinded(calls: RollCallRecord[]): void {
  for (let k = 1; k < calls.length; k++) {
    const rc = calls[k];
    if (rc.actionType !== 'rescission') continue;
    if (!(CARRIED.has(rc.result) || (rc.result === 'other' && rc.ayes.length > rc.noes.length))) continue;
    calls[k - 1].rescindedBy = rc.id;
    calls[k - 1].isFinal = false;
  }
}

/** Items of the consent / for-adoption run that ends at segment `end`: back to the last all-caps heading, skipping none that voted alone. */
function sharedRun(
  segments: Segment[],
  end: number,
  itemAt: Map<number, ItemRecord>,
  votesOf: Map<ItemRecord, unknown[]>,
) {
  const run: { item: ItemRecord; segIndex: number }[] = [];
  for (let k = end; k >= 0; k--) {
    const seg = segments[k];
    if (seg.kind === 'loose') {
      if (seg.lines.some((l) => isHeading(l.text))) break;
      continue;
    }
    const item = itemAt.get(k)!;
    if (k !== end && votesOf.get(item)!.length > 0) break;
    run.unshift({ item, segIndex: k });
  }
  return run;
}

/** The item of file `fileNumber` nearest to segment `from` (a block-level motion usually precedes its item). */
function nearestItem(
  items: ItemRecord[],
  itemAt: Map<number, ItemRecord>,
  segments: Segment[],
  from: number,
  fileNumber: string,
): ItemRecord | null {
  let best: ItemRecord | null = null;
  let distance = Infinity;
  for (const seg of segments) {
    const item = itemAt.get(seg.index);
    if (item && item.fileNumber === fileNumber && Math.abs(seg.index - from) < distance) {
      best = item;
      distance = Math.abs(seg.index - from);
    }
  }
  return best ?? items.find((i) => i.fileNumber === fileNumber) ?? null;
}

/** Speakers in order; a paragraph of the general public comment that names no speaker is an `unparsed-speaker` problem. */
function parseComments(
  doc: DocumentInfo,
  year: number,
  segments: Segment[],
  itemAt: Map<number, ItemRecord>,
  problems: Problem[],
): CommentRecord[] {
  const out: CommentRecord[] = [];
  for (const seg of segments) {
    const general = seg.kind === 'loose' && /PUBLIC COMMENT/.test(seg.section ?? '');
    if (seg.kind === 'loose' && !general) continue;
    const fileNumber = seg.kind === 'item' ? itemAt.get(seg.index)!.fileNumber : null;
    const { speakers, unparsed } = findSpeakers(seg.lines, general);
    for (const u of unparsed)
      problems.push({
        documentId: doc.id,
        page: u.page,
        kind: 'unparsed-speaker',
        detail: `public comment not read as 'Name; summary', no comment recorded: ${u.text.slice(0, 200)}`,
      });
    for (const s of speakers) {
      const sequence = out.length + 1;
      out.push({
        id: commentId(doc.id, sequence),
        documentId: doc.id,
        meetingDate: doc.meetingDate,
        year,
        page: s.page,
        speaker: s.speaker,
        statement: s.statement,
        fileNumber,
        sequence,
      });
    }
  }
  return out;
}
