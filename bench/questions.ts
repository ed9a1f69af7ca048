// The blind question set (bench/questions/README.md) through `/api/query` and the MCP `ask` tool: a question is
// answered only if the evidence bundle's top items, its top pages or its meeting record hold the exact answer.
//
//   node --import tsx bench/questions.ts [--per-question] [--out FILE]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import { withJudgedEngines } from './judged.ts';

export const QUESTIONS_FILE = join(dirname(new URL(import.meta.url).pathname), 'questions', 'questions.json');
/** Top items and pages of a bundle that count as its answer. */
const TOP = 5;

export interface Question {
  id: string;
  kind: 'natural' | 'meeting';
  question: string;
  answer: {
    type: string;
    value: string | number | string[];
    fileNumbers?: string[];
    meetingDate?: string;
    pageId?: string;
  };
  heldOut: boolean;
}

type Json = unknown;
type Bundle = Record<string, Json>;

/** Lower case, `p.m.` as `pm`, punctuation other than `$ , . : / -` dropped, spaces collapsed. */
export const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/\b([ap])\.m\./g, '$1m')
    .replace(/[“”"'’()[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** What of a bundle may hold the answer: its top legislative items and page matches, and any meeting record. */
export function evidenceOf(bundle: Bundle): Json[] {
  const list = (v: Json): Json[] =>
    Array.isArray(v)
      ? v
      : v && typeof v === 'object'
        ? (list((v as Bundle).results ?? (v as Bundle).items ?? null) ?? [])
        : [];
  const top = (v: Json) => list(v).slice(0, TOP);
  return [
    ...top(bundle.legislativeItems),
    ...top(bundle.pageMatches),
    bundle.meeting ?? null,
    bundle.meetings ?? null,
  ].filter((x) => x !== null && x !== undefined);
}

/** Every number in the JSON held by a key naming a count, and every array's length. */
function counts(v: Json, key = '', out: number[] = []): number[] {
  if (Array.isArray(v)) {
    out.push(v.length);
    for (const x of v) counts(x, key, out);
  } else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) counts(x, k, out);
  else if (typeof v === 'number' && /count|total|number|sequence|ayes?|noes|speakers|items/i.test(key)) out.push(v);
  return out;
}

/** Whether the evidence holds the question's answer. */
export function holds(q: Question, evidence: Json[]): boolean {
  const text = norm(JSON.stringify(evidence));
  const { type, value, fileNumbers = [], meetingDate } = q.answer;
  if (type === 'count' || type === 'position') return counts(evidence).includes(Number(value));
  if (type === 'yesno')
    return (
      fileNumbers.length > 0 &&
      fileNumbers.every((f) => text.includes(f)) &&
      (!meetingDate || text.includes(meetingDate))
    );
  const values = Array.isArray(value) ? value : [String(value)];
  return values.every((v) => text.includes(norm(v)));
}

async function viaRest(url: string, q: Question): Promise<Bundle> {
  const r = await fetch(`${url}/api/query?q=${encodeURIComponent(q.question)}`);
  if (!r.ok) throw new Error(`${q.id}: /api/query answered ${r.status}`);
  return (await r.json()) as Bundle;
}

async function viaMcp(client: Client, q: Question): Promise<Bundle> {
  const r = (await client.callTool({ name: 'ask', arguments: { q: q.question } })) as {
    structuredContent?: Bundle;
    content?: { type: string; text?: string }[];
  };
  return r.structuredContent ?? { text: (r.content ?? []).map((c) => c.text ?? '').join('\n') };
}

export interface QuestionScores {
  rest: { all: number; tuned: number; heldOut: number };
  mcp: { all: number; tuned: number; heldOut: number };
  wrong: { id: string; via: string; question: string }[];
}

export async function scoreQuestions(url: string, questions: Question[]): Promise<QuestionScores> {
  const client = new Client({ name: 'board-records-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`)));
  const right = { rest: new Set<string>(), mcp: new Set<string>() };
  const wrong: QuestionScores['wrong'] = [];
  try {
    for (const q of questions) {
      for (const [via, bundle] of [
        ['rest', await viaRest(url, q)],
        ['mcp', await viaMcp(client, q)],
      ] as const) {
        if (holds(q, evidenceOf(bundle))) right[via].add(q.id);
        else wrong.push({ id: q.id, via, question: q.question });
      }
    }
  } finally {
    await client.close();
  }
  const share = (set: Set<string>, qs: Question[]) =>
    qs.length ? Math.round((1000 * qs.filter((q) => set.has(q.id)).length) / qs.length) / 1000 : NaN;
  const tuned = questions.filter((q) => !q.heldOut);
  const heldOut = questions.filter((q) => q.heldOut);
  const of = (set: Set<string>) => ({
    all: share(set, questions),
    tuned: share(set, tuned),
    heldOut: share(set, heldOut),
  });
  return { rest: of(right.rest), mcp: of(right.mcp), wrong };
}

export const loadQuestions = (path = QUESTIONS_FILE): Question[] =>
  (JSON.parse(readFileSync(path, 'utf8')) as { questions: Question[] }).questions;

export interface QuestionRun extends QuestionScores {
  questions: number;
  heldOut: number;
}

/** The whole question set through a server over the judged lake (the real corpus), as `make bench` reports it. */
export async function runQuestions(): Promise<QuestionRun> {
  const questions = loadQuestions();
  const scores = await withJudgedEngines(({ url }) => scoreQuestions(url, questions));
  return { questions: questions.length, heldOut: questions.filter((q) => q.heldOut).length, ...scores };
}

export function formatQuestions(r: QuestionRun): string {
  const line = (name: string, s: QuestionScores['rest']) =>
    `${name.padEnd(11)} all ${s.all.toFixed(3)}  tuned ${s.tuned.toFixed(3)}  held out ${s.heldOut.toFixed(3)}`;
  return `${r.questions} questions (${r.heldOut} held out)\n${line('/api/query', r.rest)}\n${line('MCP ask', r.mcp)}`;
}

if (process.argv[1]?.endsWith('bench/questions.ts')) {
  const { values } = parseArgs({
    options: { 'per-question': { type: 'boolean', default: false }, out: { type: 'string' } },
  });
  const r = await runQuestions();
  process.stdout.write(formatQuestions(r) + '\n');
  if (values['per-question'])
    for (const w of r.wrong) process.stdout.write(`  wrong ${w.via.padEnd(4)} ${w.id} ${w.question}\n`);
  if (values.out) {
    mkdirSync(dirname(values.out), { recursive: true });
    writeFileSync(values.out, JSON.stringify({ measuredAt: new Date().toISOString(), ...r }, null, 2) + '\n');
  }
}
