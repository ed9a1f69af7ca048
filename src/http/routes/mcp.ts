// The MCP endpoint as the route list names it: src/mcp/http.ts serves it, mounted on the app by server.ts (http/
// knows no MCP), so this entry carries its path and its operations in the OpenAPI document only.
import type { MountedRoute } from '../endpoints.ts';
import { jsonRpcError, operationId, problem, response } from '../openapi-parts.ts';

export const mcpRoute: MountedRoute = {
  path: '/api/mcp',
  mounted: true,
  openapi: (ex) => {
    const mcpPost = ex('POST /api/mcp');
    const rpc405 = (method: string) => ({
      operationId: operationId(method, '/api/mcp'),
      summary: `Not supported: the MCP endpoint is stateless (no SSE stream, no sessions)`,
      tags: ['mcp'],
      responses: { 405: response('405', { 'application/json': jsonRpcError }, ex(`${method.toUpperCase()} /api/mcp`)) },
    });
    return {
      post: {
        operationId: operationId('post', '/api/mcp'),
        summary: 'MCP (Model Context Protocol) Streamable HTTP, stateless: one JSON-RPC message or a batch per request',
        description:
          'Protocol 2026-07-28 and the 2025 line; no sessions. The client must accept both application/json and text/event-stream. Tools are generated from the REST endpoints (tools/list). The Host is checked (DNS rebinding); CORS is open to any origin, without credentials.',
        tags: ['mcp'],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/JsonRpcMessages' },
              ...(mcpPost?.requestBody !== undefined ? { example: mcpPost.requestBody } : {}),
            },
          },
        },
        responses: {
          200: response(
            '200',
            {
              'text/event-stream': {
                type: 'string',
                description:
                  'Server-sent events (`event: message`), each a JSON-RPC response to a message of the request',
              },
            },
            mcpPost,
          ),
          202: response('202', null, mcpPost),
          400: response('400', { 'application/json': jsonRpcError }, mcpPost, {
            description: 'Malformed JSON-RPC, a bad Host header or a batch of more messages than allowed',
          }),
          403: response('403', { 'application/json': jsonRpcError }, mcpPost, {
            description: 'A Host naming another site (DNS rebinding)',
          }),
          406: response('406', { 'application/json': jsonRpcError }, mcpPost),
          413: response('413', { 'application/json': jsonRpcError }, mcpPost),
          415: response('415', { 'application/json': jsonRpcError }, mcpPost),
          503: response('503', { 'application/problem+json': problem }, mcpPost),
        },
      },
      get: rpc405('get'),
      delete: rpc405('delete'),
    };
  },
};
