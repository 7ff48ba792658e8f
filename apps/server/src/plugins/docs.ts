import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

import { appVersion } from '../lib/version';
import { DOCS_THEME_CSS } from './docs-theme';

/**
 * The product documentation at `/docs/`: getting started, connecting a course
 * and the API reference, generated from the routes' zod schemas
 * (`@fastify/swagger`) and shown with Swagger UI. The guides are the OpenAPI
 * document's description (Markdown), so the docs and the reference ship as
 * one page that can never drift from the running server.
 *
 * Register it before any route: Swagger collects routes as they are added.
 * The OpenAPI document itself is at `/docs/json` (and `/docs/yaml`).
 */
export const PRODUCT_DOCS = `
CourseLens turns what learners do inside your e-learning courses into reports,
analytics, AI summaries, pipelines and custom AI agents.

## Getting started

1. **Create an account** at [/signup](/signup): your name, e-mail, a password
   (8 to 128 characters) and your organization's name. The organization is
   created with you as its owner and becomes your primary organization.
2. **Invite your team** from *Settings → Members*. Owners manage the team,
   the organization settings and billing; everyone works with the learning data.
3. **Connect a course** (below) and open *Courses*: learners appear as soon as
   they start.

## Connecting a course

1. In *Settings → API keys* create a key with the scope **ingest**. An ingest
   key can only send data, never read it, so it is safe inside a published
   course. The secret is shown once; CourseLens keeps only its hash.
2. The course tracker (\`/tracker.js\`, with a ready-made snippet for an
   Articulate Storyline *Execute JavaScript* trigger) and the ingestion
   endpoint (\`POST /api/v1/events\`) arrive with the learning-data
   capability; this guide will then show the snippet and the event format.
   Every event will carry an id, so a retried request never counts a learner
   twice.

## Calling the API

Sign in with \`POST /api/session\` to get a session token, then send it as
\`Authorization: Bearer <token>\` and choose the organization with
\`X-Organization-Id: <organization id>\`. Errors always have the shape
\`{ "error": "<message>", "code": "<MACHINE_CODE>", "issues"?: [...] }\`.
`.trim();

export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'CourseLens', version: appVersion, description: PRODUCT_DOCS },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Session token from POST /api/session' },
          organization: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Organization-Id',
            description: 'The organization the request acts in',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: {
      docExpansion: 'list',
      // Deep links put an <a> inside each operation's toggle button (nested
      // interactive controls that screen readers cannot reach), so they stay off.
      deepLinking: false,
      defaultModelsExpandDepth: 0,
      // Without the stock top bar: its unlabelled URL box and logo image fail
      // accessibility checks, and the page documents one API only.
      layout: 'BaseLayout',
    },
    theme: {
      title: 'CourseLens API documentation',
      css: [{ filename: 'courselens.css', content: DOCS_THEME_CSS }],
    },
  });
}
