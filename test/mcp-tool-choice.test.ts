// The MCP tool descriptions, tested by asking which tool answers what (bench/mcp-tools/README.md): a reader who saw
// only tools/list chose a tool and its arguments for each of 22 users' questions (choices.json). Each choice must be
// one of the tools that answer the question (questions.json `accept`), and, called through the official client
// against the real server, must answer with the facts the question asks for.
import { readFileSync } from 'node:fs';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import t from 'tap';

import { startFixtureServer } from './fixture.ts';

interface Question {
  id: string;
  question: string;
  accept: string[];
  facts: string[];
}
interface Choice {
  id: string;
  tool: string;
  arguments: Record<string, unknown>;
}
const read = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../bench/mcp-tools/${name}`, import.meta.url), 'utf8')) as T;
const { questions } = read<{ questions: Question[] }>('questions.json');
const { choices } = read<{ choices: Choice[] }>('choices.json');

const running = await startFixtureServer();
const client = new Client({ name: 'board-records-tool-choice', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/api/mcp`)));
t.teardown(async () => {
  await client.close();
  await running.close();
});

t.test('every question has the blind reader’s choice, and every choice is a tool that answers it', async (t) => {
  const tools = new Set((await client.listTools()).tools.map((tool) => tool.name));
  t.same(
    choices.map((c) => c.id),
    questions.map((q) => q.id),
  );
  const right = questions.filter((q) => q.accept.includes(choices.find((c) => c.id === q.id)!.tool));
  for (const q of questions) for (const name of q.accept) t.ok(tools.has(name), `${q.id}: ${name} is a tool`);
  t.equal(right.length, questions.length, `${right.length} of ${questions.length} chosen right`);
});

for (const q of questions) {
  const choice = choices.find((c) => c.id === q.id)!;
  t.test(`${q.id} ${choice.tool}: ${q.question}`, async (t) => {
    const result = (await client.callTool({ name: choice.tool, arguments: choice.arguments })) as {
      isError?: boolean;
      content: { type: string; text?: string }[];
    };
    const text = result.content.map((c) => c.text ?? '').join('\n');
    t.notOk(result.isError, `answered: ${text.slice(0, 200)}`);
    for (const fact of q.facts) t.ok(text.includes(fact), `the answer holds '${fact}'`);
  });
}
