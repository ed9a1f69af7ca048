// Every route of the service, in one list, by area: the router (app.ts), the OpenAPI document (openapi.ts) and the MCP
// tools (the endpoint table's entries) are built from it. Add an area's list here.
import { type Endpoint, isEndpoint, type Route } from '../endpoints.ts';
import { openapiDocument } from '../openapi.ts';
import { answerEndpoints } from './answers.ts';
import { dataEndpoints, dataRoutes } from './data.ts';
import { feedRoutes } from './feeds.ts';
import { mcpRoute } from './mcp.ts';
import { recordPageRoutes } from './record-pages.ts';
import { recordEndpoints } from './records.ts';
import { serviceRoutes } from './service.ts';
import { webRoutes } from './web.ts';

// The OpenAPI document lists the documented routes in this order.
export const routes: Route[] = [
  ...recordEndpoints,
  ...answerEndpoints,
  ...dataEndpoints,
  ...webRoutes,
  ...recordPageRoutes,
  ...feedRoutes,
  mcpRoute,
  ...serviceRoutes(() => routes),
  ...dataRoutes,
];

/** The endpoint table: the JSON/Markdown GET resources (each an MCP tool's source too). */
export const endpoints: Endpoint[] = routes.filter(isEndpoint);

/** The OpenAPI document as served from `base` (the public base URL). */
export const openapi = (base?: string): object => openapiDocument(routes, base);
