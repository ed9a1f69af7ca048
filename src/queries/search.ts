// `/api/search`, the page's search and the search_pages tool: plain page search unless the reference page's type or
// vote filters ask for the unified list (README, 4.12).
import type { Release } from '../lake/release.ts';
import { checkPositionVoter } from './errors.ts';
import type { Links } from './links.ts';
import { searchPages } from './pages.ts';
import { type UnifiedParams, unifiedSearch, voteFiltered } from './unified.ts';

export function search(release: Release, links: Links, p: UnifiedParams) {
  checkPositionVoter(p.position, p.supervisor, 'supervisor');
  const type = p.type ?? (voteFiltered(p) ? 'all' : 'pages');
  if (type === 'pages' && !voteFiltered(p)) return searchPages(release, links, p);
  return unifiedSearch(release, links, { ...p, type });
}
