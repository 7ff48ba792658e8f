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

## Ingestion API

\`POST /api/v1/events\` with \`Authorization: Bearer <API key>\` (scope
**ingest** or **full**) and a JSON body \`{"events": [...]}\` of 1 to 1000
events, at most 1 MB (larger: 413). Each event:

\`\`\`json
{ "id": "evt-0001", "type": "variable.set", "timestamp": "2026-01-31T09:30:00Z",
  "course": { "externalCourseId": "safety-101", "title": "Safety 101" },
  "learner": { "email": "ann@example.com", "name": "Ann" },
  "run": "attempt-1",
  "variable": { "name": "final_score", "value": 87 } }
\`\`\`

\`type\` is \`course.started\`, \`variable.set\` (with \`variable\`),
\`question.answered\` (with \`question\`: \`interactionId\`, \`slideNumber\`,
\`questionNumber\`, \`text\`, \`answer\`, \`correct\`, \`correctAnswer\`,
\`points\`) or \`course.completed\`; \`timestamp\` defaults to now and \`run\`
names one attempt. The answer is \`{"accepted": n, "duplicates": n,
"rejected": [{"index", "id", "error"}]}\`: a bad event is listed and the others
are stored, committed before the answer. An \`id\` already stored is a
duplicate and changes nothing, so retry freely. Learners are created by
e-mail; unknown courses and variables are registered on first sight unless
the organization turned auto-register off (then: "Course with externalCourseId
… not found", "Variable with name … not found"). A beacon that cannot set
headers may send the key as \`"key"\` in the body (\`text/plain\` is accepted).
\`GET /api/v1/courses/{externalCourseId}/broadcast\` returns the course's
message. Both allow calls from any origin (CORS).
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
