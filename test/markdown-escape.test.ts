// The escaping rule over nasty strings: each, put where Markdown reads structure (alone on a line, after a list
// marker, inside bold, as link text), parses as CommonMark to its own words in one paragraph, with no structure.
import t from 'tap';

import { dest, esc, escSnippet, fence } from '../src/render/markdown/escape.ts';
import { offences, readText } from './markdown-check.ts';

/** A string as a test name: JSON, with line and paragraph separators spelled out (TAP reads them as line breaks). */
const label = (s: string) => JSON.stringify(s).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

const NASTY = [
  '<script>alert("HXSCRIPT")</script>',
  '<img src=x onerror=alert(1)> HXIMG',
  '```',
  '````HXFENCE',
  '~~~',
  '# HXHEADING [HXLINK](javascript:alert(1))',
  '###### HXHEADING',
  '- HXLIST',
  '+ HXLIST',
  '* HXLIST',
  '1. HXORDERED',
  '2016) HXORDERED',
  '> HXQUOTE',
  '***',
  '---',
  '___',
  '===',
  '- - -',
  '| HXTABLE | b |\n|---|---|',
  '![HXIMAGE](https://example.org/x.png)',
  '[HXREF]: https://example.org',
  '[HXREF][x] [HXREF][]',
  '<https://example.org/HXAUTOLINK>',
  '<HXMAIL@example.org>',
  '*HXEMPH* _HXEMPH_ **HXEMPH** ~~HXEMPH~~',
  '`HXCODE` ``HXCODE``',
  '&lt;script&gt; &#60;HXENTITY&#62; &amp;',
  'HXSETEXT\n===',
  'HXSETEXT\n---',
  'HXBREAK\\\nnext',
  'HXTRAILING  \nnext',
  '    HXINDENTED code',
  '\\# HXESCAPED',
  '<!-- HXCOMMENT -->',
  '<?php HXPI ?>',
  '<![CDATA[HXCDATA]]>',
  '</div>HXCLOSE',
  '\u2028# HXHEADING\u2029- HXLIST\r> HXQUOTE\r\n1. HXORDERED',
];

t.test('each nasty string reads as its own words and makes no structure, wherever it lands', async (t) => {
  for (const s of NASTY) {
    const words = s.replace(/\s+/g, ' ').trim();
    for (const [where, md] of [
      ['alone', esc(s)],
      ['under a heading', `# File 1: ${esc(s)}\n\n${esc(s)}\n${esc(s)}`],
      ['in a list', `1. **${esc(s)}** — x\n   ${esc(s)}\n   - ${esc(s)}`],
      ['after our link', `[official PDF](${dest('https://example.org/a b)(<x>')}) ${esc(s)}`],
      ['quoted', `> ${esc(s)}`],
    ]) {
      t.same(offences(md), [], `${label(s)} ${where}`);
    }
    t.equal(readText(esc(s)), words, `${label(s)} reads as the same words`);
    t.notMatch(esc(s), /\n/, 'one line');
  }
});

t.test('unescaped, the same strings are structure: the check sees it', async (t) => {
  for (const s of [
    '<script>HXSCRIPT</script>',
    '# HXHEADING',
    '- HXLIST',
    '1. HXORDERED',
    '> HXQUOTE',
    '***',
    'a\n===',
    '[HXLINK](javascript:x)',
    '*HXEMPH*',
  ])
    t.not(offences(s).length, 0, label(s));
});

t.test('a fence is longer than any backtick run inside, so no line closes it', async (t) => {
  for (const body of ['```\n# HXHEADING', 'a ```` b\n````\n<script>HXSCRIPT</script>', 'no ticks']) {
    const md = `${fence(body)}\n\n# after`;
    t.same(offences(md), [], JSON.stringify(body));
    t.match(md, /^(`{3,})text\n[\s\S]*\n\1\n/, 'opens and closes with the same fence');
  }
  t.equal(fence('a ```` b').split('\n')[0], '`````text', 'five backticks over a run of four');
  t.equal(fence('plain').split('\n')[0], '```text', 'three at least');
});

t.test("a snippet keeps the search's marks and escapes the rest", async (t) => {
  t.equal(escSnippet('… the **roof** <b>deck</b> …'), '… the **roof** \\<b\\>deck\\</b\\> …');
  t.equal(escSnippet('**1.** # HXHEADING'), '**1.** \\# HXHEADING');
  for (const s of NASTY) t.same(offences(`   ${escSnippet(`**HXMARK** ${s}`)}`), [], label(s));
});

t.test('ordinary text stays readable: only what could be structure is escaped', async (t) => {
  t.equal(
    esc('Ordinance amending the Planning Code (Fiscal Impact), 2016-11-01.'),
    'Ordinance amending the Planning Code (Fiscal Impact), 2016-11-01.',
  );
  t.equal(esc('1. first'), '1\\. first');
  t.equal(esc('- item'), '\\- item');
  t.equal(esc('a <b> & c'), 'a \\<b\\> \\& c');
  t.equal(esc('  two\n\nlines  '), 'two lines');
  t.equal(esc(null), '');
  t.equal(dest('https://sfbos.org/a b(1).pdf#page=2'), 'https://sfbos.org/a%20b%281%29.pdf#page=2');
});
