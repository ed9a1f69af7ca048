// Everything a user can set or call is documented: every configuration variable (src/config.ts, core/config.ts) and
// every MCP tool in README.md, every column of the lake's tables in its section of lake/README.md, every bound in
// docs/robustness.md with the default the code has.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import t from 'tap';

import { CHANGE_COLUMNS, COLUMNS, COVERAGE_COLUMNS, LEGISTAR_FIELDS } from '../core/lake/format.ts';
import { configFromEnv, DEFAULT_LIMITS } from '../src/config.ts';
import { MAX_PINNED } from '../src/lake/lake.ts';
import { MAX_BODY_BYTES } from '../src/mcp/http.ts';
import { tools } from '../src/mcp/tools.ts';
import { DEPTH } from '../src/render/html/page.ts';
import { ROOT } from './fixture.ts';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const mentions = (text: string, word: string) => new RegExp(`(^|[^\\w])${word}([^\\w]|$)`).test(text);

t.test('every configuration variable is in README.md', async (t) => {
  const readme = read('README.md');
  const names = new Set(
    [
      ...read('src/config.ts').matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g),
      ...read('core/config.ts').matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g),
    ].map((m) => m[1]),
  );
  t.ok(names.size >= 20, `${names.size} variables read`);
  for (const name of names) t.ok(mentions(readme, name), `${name} is documented`);
});

t.test('every MCP tool is in README.md', async (t) => {
  const readme = read('README.md');
  t.equal(tools.length, 13);
  for (const tool of tools) t.ok(mentions(readme, tool.name), `${tool.name} is documented`);
});

t.test("every lake column is in its table's section of lake/README.md", async (t) => {
  const sections = new Map<string, string>();
  for (const part of read('lake/README.md').split(/^## /m).slice(1)) sections.set(part.split(/\s/)[0], part);
  const tables: Record<string, Record<string, string>> = {
    ...COLUMNS,
    coverage: COVERAGE_COLUMNS,
    changes: CHANGE_COLUMNS,
  };
  for (const [table, columns] of Object.entries(tables)) {
    const section = sections.get(table);
    t.ok(section, `lake/README.md has a section ## ${table}`);
    for (const column of Object.keys(columns))
      t.ok(section && mentions(section, column), `${table}.${column} is documented`);
  }
  const files = sections.get('legislative_files');
  for (const field of Object.keys(LEGISTAR_FIELDS))
    t.ok(files && mentions(files, field), `legislative_files.legistar.${field} is documented`);
});

t.test("docs/robustness.md's table of bounds states the defaults the code has", async (t) => {
  const table = /^\| bound \| variable \| default \|.*\n\|[-|]+\n((?:\|.*\n)+)/m.exec(read('docs/robustness.md'));
  t.ok(table, 'docs/robustness.md has the table of bounds');
  const rows = table![1]
    .trim()
    .split('\n')
    .map((line) => line.split('|').map((c) => c.trim()));
  const constants: Record<string, number> = { MAX_BODY_BYTES, MAX_PINNED, DEPTH };
  // What each setting is in the configuration, flattened: the one a variable moves is the one it sets.
  const settings = (env: NodeJS.ProcessEnv) => {
    const { limits, ...config } = configFromEnv(env);
    return { ...config, ...limits } as Record<string, unknown>;
  };
  const defaults = settings({});
  const covered = new Set<string>();
  for (const [, bound, variable, documented] of rows) {
    const name = /`([A-Z_]+)`/.exec(variable)?.[1];
    t.ok(name, `${bound}: names a variable or a constant`);
    if (!name) continue;
    if (variable.startsWith('—')) {
      t.equal(Number(documented), constants[name], `${bound}: ${name} is ${documented}`);
      continue;
    }
    const set = settings({ [name]: '1000' });
    const moved = Object.keys(set).filter((k) => typeof set[k] !== 'function' && set[k] !== defaults[k]);
    t.equal(moved.length, 1, `${name} sets one setting (${moved.join(', ')})`);
    const unit = Number(set[moved[0]]) / 1000; // bytes per MB for a variable in MB
    t.equal(Number(documented) * unit, defaults[moved[0]], `${name}: default ${documented}`);
    covered.add(moved[0]);
  }
  for (const limit of Object.keys(DEFAULT_LIMITS)) t.ok(covered.has(limit), `the limit ${limit} is in the table`);
});
