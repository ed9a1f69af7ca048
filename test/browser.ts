// Headless Chromium (Debian's) for the page tests: one browser per test file, screenshots in test-artifacts/, and
// axe-core run inside a page (0 serious or critical violations).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { type Browser, chromium, type Page } from 'playwright-core';

import type { Json } from './fixture.ts';
import { ROOT } from './fixture.ts';

export const ARTIFACTS = join(ROOT, 'test-artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/** `args`: more Chromium switches (e.g. `--host-resolver-rules` to give a loopback server another site's name). */
export function launch(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...args,
    ],
  });
}

/** A screenshot of the whole page: test-artifacts/web-<name>.png. */
export const shot = (page: Page, name: string, fullPage = true) =>
  page.screenshot({ path: join(ARTIFACTS, `web-${name}.png`), fullPage });

export const PHONE = { width: 390, height: 844 };

/**
 * axe-core's serious and critical violations on the page, as `rule: target` lines. The page's CSP admits no injected
 * script, so the page must come from a context made with `bypassCSP: true`.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: join(ROOT, 'node_modules', 'axe-core', 'axe.min.js') });
  const violations = await page.evaluate(async () => {
    const r = await (window as Json).axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v: Json) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.slice(0, 3).map((n: Json) => String(n.target)),
    }));
  });
  return violations
    .filter((v: Json) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: Json) => `${v.id}: ${v.targets.join(' | ')}`);
}
