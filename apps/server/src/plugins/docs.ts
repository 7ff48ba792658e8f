import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

import { appVersion } from '../lib/version';
import { DOCS_THEME_CSS } from './docs-theme';
import { forbiddenMessage, isOwnerAccess } from './tenant';

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
2. **Invite your team** from *Settings → Invitations*. Owners manage the
   team, the organization settings, billing and API keys, delete courses and
   share reports and views publicly; team members work with the learning data
   (courses, broadcasts, variables, questions, reports, AI summaries). An
   owners-only call answers 403 and says who may make it.
3. **Connect a course** (below) and open *Courses*: learners appear as soon as
   they start.

## Connecting a course

1. In *Settings → API keys* create a key with the scope **ingest**. An ingest
   key can only send data, never read it, so it is safe inside a published
   course. The secret is shown once; CourseLens keeps only its hash.
2. Load the course tracker, \`/tracker.js\` (under 4 KB compressed, no dependencies),
   in the course and tell it who learns what: one of the two snippets below.
3. Open *Courses*: the course, its learners, variables and questions appear as
   soon as the first learner starts. Every event carries its own id, so a
   retried request never counts a learner twice.

Replace \`https://courselens.example.com\` with this server's address and
\`YOUR_INGEST_KEY\` with the key. \`externalCourseId\` is your own stable id of
the course (a course is registered the first time it is seen, with \`title\`).

### Any web course

\`\`\`html
<script src="https://courselens.example.com/tracker.js"></script>
<script>
  CourseLens.init({
    endpoint: 'https://courselens.example.com',
    key: 'YOUR_INGEST_KEY',
    course: { externalCourseId: 'workplace-safety', title: 'Workplace safety' },
    learner: { email: 'lee@example.com', name: 'Lee Learner' },
  });
  // Whenever something worth keeping happens:
  CourseLens.setVariable('Score', 85);
  CourseLens.answer({
    interactionId: 'assembly-point', slideNumber: 3, questionNumber: 1,
    text: 'Where is the fire assembly point?', answer: 'North car park',
    correct: true, correctAnswer: 'North car park', points: 10,
  });
  // At the end:
  CourseLens.complete();
</script>
\`\`\`

### Articulate Storyline

On the first slide add a trigger *Execute JavaScript*, *when the timeline
starts*, with this script. It loads the tracker once (Storyline keeps it for
every later slide), reads the learner from two Storyline text variables
(\`LearnerEmail\`, \`LearnerName\`: fill them from your LMS or a sign-in
slide) and sends the listed Storyline variables:

\`\`\`js
var ENDPOINT = 'https://courselens.example.com';
var KEY = 'YOUR_INGEST_KEY';
var TRACKED = ['Score', 'Department', 'Passed'];
var player = GetPlayer();
function startTracking() {
  CourseLens.init({
    endpoint: ENDPOINT,
    key: KEY,
    course: { externalCourseId: 'workplace-safety', title: 'Workplace safety' },
    learner: { email: player.GetVar('LearnerEmail'), name: player.GetVar('LearnerName') },
  });
  CourseLens.syncStorylineVariables(TRACKED);
  CourseLens.showBroadcast();
}
if (window.CourseLens) startTracking();
else {
  var script = document.createElement('script');
  script.src = ENDPOINT + '/tracker.js';
  script.onload = startTracking;
  document.head.appendChild(script);
}
\`\`\`

Then, with more *Execute JavaScript* triggers:

- on the slide master (*when the timeline starts*), to number slides as the
  course shows them:
  \`var p = GetPlayer(); CourseLens.slide({ number: p.GetVar('SlideNumber'),
  title: p.GetVar('SlideTitle'), scene: p.GetVar('SceneTitle') });\` where
  \`SlideNumber\`, \`SlideTitle\` and \`SceneTitle\` are project variables
  you set on the master slide from Storyline's built-in slide number, slide
  title and scene title (without this trigger the tracker still sends one
  view per slide from the player's address);
- on the results slide, with the score and pass mark of your result slide:
  \`CourseLens.pass({ score: GetPlayer().GetVar('Score'), passMark: 80 });\`
  or \`CourseLens.fail({ ... })\`;
- on later slides (*when the timeline starts*) or *when a variable changes*:
  \`CourseLens.syncStorylineVariables(['Score', 'Department', 'Passed']);\`
  (only the variables whose value changed since the last call are sent);
- after a question is submitted:
  \`CourseLens.answer({ interactionId: 'assembly-point', slideNumber: 3,
  questionNumber: 1, answer: GetPlayer().GetVar('AssemblyAnswer'),
  correct: GetPlayer().GetVar('AssemblyCorrect'), points: 10 });\`
- on the last slide: \`CourseLens.complete();\`

### What each call does

- \`CourseLens.init({ endpoint, key, course, learner, run? })\` starts
  tracking one learner in one course and sends \`course.started\` (one course
  run, a *view*). Calling it again with the same settings does nothing, so a
  trigger may run it more than once. \`endpoint\` defaults to the address
  \`tracker.js\` came from; \`run\` is your id of the attempt (default: one per
  page load); \`autoStart: false\` waits for \`CourseLens.start()\`.
- \`CourseLens.setVariable(name, value)\` records a value (text, number,
  true/false, a date, or null) as \`variable.set\`.
- \`CourseLens.answer({ interactionId, slideNumber, questionNumber, text,
  answer, correct, correctAnswer, points })\` records a response as
  \`question.answered\`; only \`interactionId\` is required.
- \`CourseLens.slide({ number, title, scene })\` records a slide view as
  \`slide.viewed\`, with the seconds spent on the previous slide. Without it
  the tracker sends slide views on its own: every new address of the page
  (routed web courses change the path or the hash per page, and so does
  Storyline's player per slide) is a slide, numbered in the order first seen
  and titled with the page title. The first call of \`CourseLens.slide()\`
  turns the automatic views off, so a course that numbers its slides is never
  counted twice; \`autoSlides: false\` in \`init\` turns them off from the start.
- \`CourseLens.progress(percent)\` records \`course.progressed\` (0 to 100).
- \`CourseLens.pass({ score, passMark })\` and \`CourseLens.fail({ score,
  passMark })\` record \`course.passed\` / \`course.failed\`.
- \`CourseLens.exit()\` records \`course.exited\`: the learner leaves without
  completing (a suspend).
- \`CourseLens.complete()\` sends \`course.completed\` and everything still
  waiting.
- \`CourseLens.syncStorylineVariables(names)\` (or
  \`CourseLens.fromStoryline(player, names)\`) reads each variable with
  \`GetPlayer().GetVar(name)\` and sends those that changed.
- \`CourseLens.showBroadcast()\` fetches the course's broadcast message (set
  under *Courses → Broadcasts*) and, when there is one, shows it in a banner
  at the top of the page that screen readers announce and the learner can
  dismiss (a dismissed message stays dismissed in that browser).
- \`CourseLens.flush()\` sends what is waiting now; \`CourseLens.pending()\`
  says how many events wait.

### How events travel

Events are queued in the browser's \`localStorage\` (one queue per server, key
and course) and sent together a second later, up to 100 per request, to
\`POST /api/v1/events\` with \`Authorization: Bearer <key>\`. When the network
or the server fails (or answers 429 or 5xx), the tracker tries again after 1,
2, 4… seconds (at most a minute, with random jitter) and at once when the
browser is back online; an answer 400, 401 or 413 cannot get better, so that
batch is dropped with a warning in the browser console. Events leave the queue
only once the server has acknowledged them: a tab closed offline loses
nothing, and the next visit sends them. When the page is hidden or closed the
tracker also hands the queue to \`navigator.sendBeacon\`, which cannot set
headers, so the key travels in the body (\`{"key": "...", "events": [...]}\`).
A batch that arrives twice (beacon and retry) is counted once, thanks to the
event ids.

## Calling the API

Sign in with \`POST /api/session\` to get a session token, then send it as
\`Authorization: Bearer <token>\` and choose the organization with
\`X-Organization-Id: <organization id>\`. Errors always have the shape
\`{ "error": "<message>", "code": "<MACHINE_CODE>", "issues"?: [...] }\`.

## Ingestion API

\`POST /api/v1/events\` with \`Authorization: Bearer <API key>\` (keys have
one scope, **ingest**: they send data and read nothing) and a JSON body
\`{"events": [...]}\` of 1 to 1000 events, at most 1 MB (larger: 413). Each
event:

\`\`\`json
{ "id": "evt-0001", "type": "variable.set", "timestamp": "2026-01-31T09:30:00Z",
  "course": { "externalCourseId": "safety-101", "title": "Safety 101" },
  "learner": { "email": "ann@example.com", "name": "Ann" },
  "run": "attempt-1",
  "variable": { "name": "final_score", "value": 87 } }
\`\`\`

\`type\` is one of:

| type | with | means |
| --- | --- | --- |
| \`course.started\` | | a run (attempt) begins |
| \`slide.viewed\` | \`slide\`: \`number\`, \`title\`, \`scene\`, \`secondsOnPrevious\` | a slide or page is shown |
| \`variable.set\` | \`variable\`: \`name\`, \`value\` | a course variable's value |
| \`question.answered\` | \`question\`: \`interactionId\`, \`slideNumber\`, \`questionNumber\`, \`text\`, \`answer\`, \`correct\`, \`correctAnswer\`, \`points\` | a response |
| \`course.progressed\` | \`progress\`: \`percent\` (0 to 100) | how far the learner got |
| \`course.passed\`, \`course.failed\` | \`result\` (optional): \`score\`, \`passMark\` | the attempt's outcome |
| \`course.exited\` | | left without completing (suspended) |
| \`course.completed\` | | the attempt is complete |

\`timestamp\` defaults to now and must lie between 2000-01-01 and a day
from now (a device clock gone wrong is refused, for that event alone);
\`run\` names one attempt. Text must not contain a NUL character or half of
an emoji (an unpaired surrogate): such an event is refused alone. Every
accepted event is kept whole in the learning-event log, with any further
fields you add (up to 4 000 characters of JSON). The answer is \`{"accepted": n, "duplicates": n,
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

/**
 * The reference says which operations only owners may call, taken from the
 * route's own access declaration, so the docs cannot drift from the 403s.
 */
const markOwnerOnlyOperations: typeof jsonSchemaTransform = (input) => {
  const result = jsonSchemaTransform(input);
  const access = input.route.config?.access;
  if (!access || !isOwnerAccess(access)) return result;
  const note = `**Owners only.** ${forbiddenMessage(access)}; a team member gets 403.`;
  const { description } = result.schema as { description?: unknown };
  return {
    ...result,
    schema: {
      ...result.schema,
      description: typeof description === 'string' ? `${note}\n\n${description}` : note,
    },
  };
};

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
    transform: markOwnerOnlyOperations,
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
