// A refused search in plain words: what a resident typed or picked, and what to do, never a parameter name or a rule.
// The API's problem document keeps the exact parameter and rule; the page says the same thing to a person.
import type { ParamError } from '../../queries/errors.ts';
import { esc, month } from './layout.ts';

export interface Candidate {
  id?: string;
  fullName?: string;
  termFrom?: string | null;
  termTo?: string | null;
}

/** What the page knows of a refusal: the broken rules, the supervisors a name could mean, the name typed. */
export interface Refusal {
  status: number;
  errors: ParamError[];
  candidates?: Candidate[];
  /** The text in the supervisor box, the years and the page asked. */
  typed: { supervisor: string; from: string; to: string; page?: number };
  /** The pages the search's results fill, when a page past them was asked. */
  pages?: number;
}

const YEARS = 'Records can be searched from 2012 to 2026.';

function sentence(e: ParamError, r: Refusal): string {
  const name = `“${r.typed.supervisor}”`;
  switch (e.parameter) {
    case 'q':
      if (e.rule === 'maxLength') return 'That search is too long: use at most 300 characters.';
      return 'Type at least two letters or digits to search.';
    case 'from':
    case 'to':
    case 'year':
      if (e.rule === 'from-after-to') return 'The first year comes after the last year: swap them.';
      return `${YEARS} Pick years in that range, or leave the year boxes empty.`;
    case 'supervisor':
    case 'voter':
      if (e.rule === 'ambiguous')
        return `${name} could be ${r.candidates?.length ?? 'several'} supervisors. Pick one below, or type the full name.`;
      if (e.rule === 'not-serving')
        return `${name} was not a supervisor in the years asked. Widen the years, or pick another supervisor.`;
      if (e.rule === 'unknown')
        return `No supervisor on record is called ${name}.${r.candidates?.length ? ' Did you mean one of those below?' : ''}`;
      return 'Type a supervisor’s surname or full name (at most 80 characters).';
    case 'position':
      if (e.rule.startsWith('requires'))
        return 'Choose a supervisor to see how they voted: a recorded position belongs to a supervisor.';
      return 'Choose a recorded position from the list (aye, no, absent or excused).';
    case 'type':
      return 'Choose what to search from the list.';
    case 'page':
      if (r.pages)
        return `There is no page ${r.typed.page} of these results: they fill page${r.pages === 1 ? ' 1' : `s 1 to ${r.pages}`}.`;
      return 'There is no such page of results. Start again from the first page.';
    default:
      return 'Part of this search could not be read. Start again from the search box.';
  }
}

/** One sentence per distinct problem. */
export const plainErrors = (r: Refusal): string[] => [...new Set(r.errors.map((e) => sentence(e, r)))];

const term = (c: Candidate) => (c.termFrom ? ` (${month(c.termFrom)} to ${c.termTo ? month(c.termTo) : 'now'})` : '');

/** The error box of the search page: the sentences, and the supervisors a name could mean as links that search again. */
export function refusalHtml(r: Refusal, searchWith: (supervisor: string) => string): string {
  const candidates = r.candidates?.filter((c) => c.fullName) ?? [];
  return `<div class="error" role="alert"><h2>That search could not run</h2>${plainErrors(r)
    .map((s) => `<p>${esc(s)}</p>`)
    .join('')}${
    candidates.length
      ? `<ul class="candidates">${candidates.map((c) => `<li><a href="${esc(searchWith(c.fullName!))}">${esc(c.fullName)}</a>${esc(term(c))}</li>`).join('')}</ul>`
      : ''
  }</div>`;
}
