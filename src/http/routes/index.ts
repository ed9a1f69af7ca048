// Every route of the service, by area. Add an area's list here.
import type { Endpoint, RawRoute } from '../endpoints.ts';
import { answerEndpoints } from './answers.ts';
import { dataEndpoints, dataRoutes } from './data.ts';
import { recordEndpoints } from './records.ts';
import { feedRoutes } from './feeds.ts';
import { recordPageRoutes } from './record-pages.ts';
import { webRoutes } from './web.ts';

export const endpoints: Endpoint[] = [...recordEndpoints, ...answerEndpoints, ...dataEndpoints];

export const rawRoutes: RawRoute[] = [...webRoutes, ...recordPageRoutes, ...feedRoutes, ...dataRoutes];
