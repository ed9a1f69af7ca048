// Search and record endpoints: pages, legislative items, public comments.
import { meetingDate } from '../../queries/meetings.ts';
import { meetingMarkdown, meetingsMarkdown, withCoverage } from '../../render/markdown/meetings.ts';
import {
  commentMarkdown,
  commentsMarkdown,
  itemMarkdown,
  itemsMarkdown,
  pageMarkdown,
  searchMarkdown,
} from '../../render/markdown/records.ts';
import type {
  CommentRecord,
  CommentSearchResponse,
  CommentsParams,
  ItemRecord,
  ItemSearchResponse,
  ItemsParams,
  MeetingList,
  MeetingParams,
  MeetingRecord,
  MeetingsParams,
  PageRecord,
  RecordParams,
  SearchParams,
  SearchResponse,
} from '../../schema-types.ts';
import { type Endpoint, endpoint } from '../endpoints.ts';
import { notFound } from '../errors.ts';
import {
  getComment,
  getItem,
  getMeeting,
  getPage,
  listMeetings,
  search,
  searchComments,
  searchItems,
} from '../typed-queries.ts';

export const recordEndpoints: Endpoint[] = [
  endpoint<SearchParams, SearchResponse>({
    path: '/api/search',
    summary: 'Page-level full-text search over agendas and minutes (BM25)',
    tag: 'search',
    params: 'params/search.json',
    response: 'search-response.json',
    markdown: withCoverage(searchMarkdown),
    query: search,
  }),
  endpoint<RecordParams, PageRecord>({
    path: '/api/pages/:id',
    summary: 'One PDF page: text with layout, running header and footer, official link',
    tag: 'records',
    params: 'params/record.json',
    response: 'page-record.json',
    markdown: pageMarkdown,
    handler: async ({ release, urls, path }) =>
      (await getPage(release, urls, path.id)) ??
      Promise.reject(notFound(`no page '${path.id}' in release ${release.id}`)),
  }),
  endpoint<ItemsParams, ItemSearchResponse>({
    path: '/api/items',
    summary:
      'Search legislative-item blocks with their roll calls; filter by voter, position and final actions; group by file or matter',
    tag: 'search',
    params: 'params/items.json',
    response: 'item-search-response.json',
    markdown: withCoverage(itemsMarkdown),
    query: searchItems,
  }),
  endpoint<RecordParams, ItemRecord>({
    path: '/api/items/:id',
    summary:
      'One legislative-item block: text, roll calls, extracted facts, comments taken in its hearing, official link',
    tag: 'records',
    params: 'params/record.json',
    response: 'item-record.json',
    markdown: itemMarkdown,
    handler: async ({ release, urls, path }) =>
      (await getItem(release, urls, path.id)) ??
      Promise.reject(notFound(`no item '${path.id}' in release ${release.id}`)),
  }),
  endpoint<CommentsParams, CommentSearchResponse>({
    path: '/api/comments',
    summary: "Search speaker-level public-comment summaries (the Clerk's, not verbatim)",
    tag: 'search',
    params: 'params/comments.json',
    response: 'comment-search-response.json',
    markdown: withCoverage(commentsMarkdown),
    query: searchComments,
  }),
  endpoint<RecordParams, CommentRecord>({
    path: '/api/comments/:id',
    summary: 'One public comment: speaker as recorded, the summary, page and official link',
    tag: 'records',
    params: 'params/record.json',
    response: 'comment-record.json',
    markdown: commentMarkdown,
    handler: async ({ release, urls, path }) =>
      (await getComment(release, urls, path.id)) ??
      Promise.reject(notFound(`no comment '${path.id}' in release ${release.id}`)),
  }),
  endpoint<MeetingsParams, MeetingList>({
    path: '/api/meetings',
    summary:
      'The meetings the lake holds, by date (year, or from/to), each with its documents and counts of pages, items, roll calls and comments',
    tag: 'records',
    params: 'params/meetings.json',
    response: 'meeting-list.json',
    markdown: withCoverage(meetingsMarkdown),
    query: listMeetings,
  }),
  endpoint<MeetingParams, MeetingRecord>({
    path: '/api/meetings/:date',
    summary:
      'One meeting: its documents, its items in agenda order with actions, results and roll calls, and its public commenters in order',
    description:
      'Filter the items with actionType or result (e.g. result=not-adopted). 404 when the lake holds no document of that date: /api/meetings lists those it holds.',
    tag: 'records',
    params: 'params/meeting.json',
    response: 'meeting-record.json',
    markdown: meetingMarkdown,
    handler: async ({ release, urls, path, params }) =>
      (await getMeeting(release, urls, meetingDate(path.date), params)) ??
      Promise.reject(
        notFound(
          `the lake holds no meeting of ${path.date} in release ${release.id}; /api/meetings lists the meetings it holds`,
        ),
      ),
  }),
];
