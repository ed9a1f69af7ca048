// robots.txt (RFC 9309): the group for our product token, else `*`; longest matching rule wins, Allow on a tie.
import type { Guard, HttpClient } from './http.ts';

interface Rule {
  allow: boolean;
  pattern: string;
  regex: RegExp;
}

export interface RobotsRules {
  allowed(pathAndQuery: string): boolean;
}

function compile(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
}

export function parseRobots(text: string, userAgent: string): RobotsRules {
  const token = userAgent.split(/[/\s]/)[0].toLowerCase();
  const groups: { agents: string[]; rules: Rule[] }[] = [];
  let current: { agents: string[]; rules: Rule[] } | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const field = m[1].toLowerCase();
    const value = m[2].trim();
    if (field === 'user-agent') {
      if (!current || current.rules.length > 0) groups.push((current = { agents: [], rules: [] }));
      current.agents.push(value.toLowerCase());
    } else if ((field === 'allow' || field === 'disallow') && current) {
      if (value === '') continue; // an empty Disallow allows everything
      current.rules.push({ allow: field === 'allow', pattern: value, regex: compile(value) });
    }
  }
  const mine = groups.filter((g) => g.agents.some((a) => a !== '*' && token.includes(a)));
  const chosen = mine.length > 0 ? mine : groups.filter((g) => g.agents.includes('*'));
  const rules = chosen.flatMap((g) => g.rules);
  return {
    allowed(path: string): boolean {
      let best: Rule | null = null;
      for (const r of rules) {
        if (!r.regex.test(path)) continue;
        if (!best || r.pattern.length > best.pattern.length || (r.pattern.length === best.pattern.length && r.allow))
          best = r;
      }
      return best ? best.allow : true;
    },
  };
}

const ALLOW_ALL: RobotsRules = { allowed: () => true };
const DISALLOW_ALL: RobotsRules = { allowed: () => false };

/**
 * One robots.txt per origin, fetched once per run (its redirects followed, its size bounded by the client's maxTextBytes).
 * `http` must be a client without a guard that consults these Robots: a guarded fetch of robots.txt would wait on itself.
 */
export class Robots {
  private cache = new Map<string, Promise<RobotsRules>>();
  constructor(
    private http: HttpClient,
    private userAgent: string,
    private warn: (msg: string) => void = () => {},
  ) {}

  async allowed(url: string): Promise<boolean> {
    const u = new URL(url);
    let rules = this.cache.get(u.origin);
    if (!rules) this.cache.set(u.origin, (rules = this.load(u.origin)));
    return (await rules).allowed(u.pathname + u.search);
  }

  private async load(origin: string): Promise<RobotsRules> {
    try {
      const res = await this.http.text(`${origin}/robots.txt`);
      if (res.status === 200) return parseRobots(res.text, this.userAgent);
      if (res.status >= 400 && res.status < 500) return ALLOW_ALL; // no robots.txt: no restrictions
      this.warn(`robots.txt at ${origin}: HTTP ${res.status}; treating the site as disallowed`);
      return DISALLOW_ALL;
    } catch (err) {
      // RFC 9309 §2.3.1.4: an unreachable robots.txt means complete disallow.
      this.warn(`robots.txt at ${origin} unreachable (${(err as Error).message}); treating the site as disallowed`);
      return DISALLOW_ALL;
    }
  }
}

/** The guard of every request and redirect hop: only the configured hosts, and only what their robots.txt allows. */
export function hostGuard(allowedHosts: Set<string>, robots: Robots): Guard {
  return async (url) => {
    if (!allowedHosts.has(url.host)) return `host not among the configured sources: ${url.host}`;
    if (!(await robots.allowed(url.href))) return `disallowed by robots.txt of ${url.host}`;
    return null;
  };
}
