// The queries whose inferred answers are looser than their response schemas' types, stated as those types (see
// `declared` in endpoints.ts): the same functions, so nothing changes at run time, and the contract check verifies each
// answer against its schema. The endpoint table, the record pages, the feeds and the MCP tools call them from here.
// A query the engine types (its DuckDB rows' columns declared) leaves this list and is imported directly.
import type { Release } from '../lake/release.ts';
import * as housing from '../queries/aggregates/housing.ts';
import * as aggregates from '../queries/aggregates/votes.ts';
import * as changes from '../queries/changes.ts';
import * as comments from '../queries/comments.ts';
import * as evidence from '../queries/evidence.ts';
import * as items from '../queries/items.ts';
import type { Links } from '../queries/links.ts';
import * as meetings from '../queries/meetings.ts';
import * as pages from '../queries/pages.ts';
import * as quality from '../queries/quality.ts';
import * as searches from '../queries/search.ts';
import * as snapshots from '../queries/snapshots.ts';
import type {
  ChangeFeed,
  CommentRecord,
  CommentSearchResponse,
  EvidenceBundle,
  HousingAggregate,
  ItemRecord,
  ItemSearchResponse,
  MeetingList,
  MeetingRecord,
  PageRecord,
  QualityReport,
  SearchResponse,
  SnapshotManifest,
  SnapshotPage,
  SnapshotRecord,
  VotesAggregate,
} from '../schema-types.ts';
import { declared } from './endpoints.ts';

// Built from DuckDB rows, whose columns TypeScript sees as untyped.
export const search = declared<SearchResponse>()(searches.search);
export const getPage = declared<PageRecord | null>()(pages.getPage);
export const searchItems = declared<ItemSearchResponse>()(items.searchItems);
export const getItem = declared<ItemRecord | null>()(items.getItem);
export const searchComments = declared<CommentSearchResponse>()(comments.searchComments);
export const getComment = declared<CommentRecord | null>()(comments.getComment);
export const listMeetings = declared<MeetingList>()(meetings.listMeetings);
export const getMeeting = declared<MeetingRecord | null>()(meetings.getMeeting);
export const evidenceBundle = declared<EvidenceBundle>()(evidence.evidenceBundle);
export const snapshotPage = declared<SnapshotPage>()(snapshots.snapshotPage);
export const snapshotRecord = declared<SnapshotRecord | null>()(snapshots.snapshotRecord);
export const changeFeed = declared<ChangeFeed>()(changes.changeFeed);

// Records whose actionType is read as a string, not as the schema's enum.
export const votesAggregate = declared<VotesAggregate>()(aggregates.votesAggregate);
export const housingAggregate = declared<HousingAggregate>()(housing.housingAggregate);

// Typed looser than the schema: the manifest's formats as strings, the quality report's counts per table.
export const snapshotManifest = declared<SnapshotManifest>()(async (release: Release, links: Links) =>
  snapshots.snapshotManifest(release, links),
);
export const qualityReport = declared<QualityReport>()(quality.qualityReport);
