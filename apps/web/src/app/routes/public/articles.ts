/** The articles of /blog/:id. Plain data so the list and the article page share it. */
export type ArticleBlock =
  | { type: 'p'; text: string }
  | { type: 'h2'; text: string }
  | { type: 'code'; text: string }
  | { type: 'list'; items: string[] };

export type Article = {
  id: string;
  title: string;
  summary: string;
  date: string;
  readingMinutes: number;
  blocks: ArticleBlock[];
};

export const articles: readonly Article[] = [
  {
    id: 'send-storyline-variables-to-courselens',
    title: 'How to send Storyline variables to CourseLens',
    summary:
      'Three triggers and one script tag: every score, choice and free-text answer of an Articulate Storyline course, in a report.',
    date: '2026-11-10',
    readingMinutes: 5,
    blocks: [
      {
        type: 'p',
        text: 'Storyline keeps everything a learner does in variables: the score of a quiz, the branch they chose, what they typed in a text entry. SCORM only reports a few of them to your LMS. CourseLens receives all of them.',
      },
      { type: 'h2', text: '1. Create an ingestion key' },
      {
        type: 'p',
        text: 'In CourseLens open Settings, then API keys, and create a key with the scope "ingest". An ingest key can only send data, never read it, so it is safe inside a published course.',
      },
      { type: 'h2', text: '2. Load the tracker in the course' },
      {
        type: 'p',
        text: 'Add an "Execute JavaScript" trigger on the first slide, when the timeline starts:',
      },
      {
        type: 'code',
        text: "var s = document.createElement('script');\ns.src = 'https://your-org.courselens.app/tracker.js';\ns.dataset.key = 'YOUR_INGEST_KEY';\ns.dataset.course = 'safety-onboarding';\ndocument.head.appendChild(s);",
      },
      { type: 'h2', text: '3. Send a variable when it changes' },
      { type: 'p', text: 'Add an "Execute JavaScript" trigger when the variable changes:' },
      {
        type: 'code',
        text: "var player = GetPlayer();\nwindow.CourseLens && window.CourseLens.track('final_score', player.GetVar('final_score'));",
      },
      {
        type: 'p',
        text: 'Publish, open the course and answer a question: the value shows up under Variables, with a report, a chart and a leaderboard. Events carry an id, so a learner who reloads a slide is never counted twice.',
      },
      { type: 'h2', text: 'What to send' },
      {
        type: 'list',
        items: [
          'Scores and results (numbers): averages, spread and leaders.',
          'Choices in branching scenarios (text): which path people take.',
          'Free-text reflections: read them in the report or summarise them with AI.',
        ],
      },
    ],
  },
  {
    id: 'completion-is-not-understanding',
    title: 'Completion is not understanding: five signals worth tracking',
    summary:
      'A completion flag tells you someone reached the last slide. These five signals tell you whether the course worked.',
    date: '2026-11-03',
    readingMinutes: 4,
    blocks: [
      {
        type: 'p',
        text: 'Most learning dashboards stop at completion. It is easy to measure and nearly useless: a learner who clicks "next" twenty times completes the course.',
      },
      {
        type: 'list',
        items: [
          'First-try success per question: the items that confuse people.',
          'Time per slide: where attention drops, and where people struggle.',
          'Branch choices: which decisions learners make before feedback.',
          'Drop-off points: the slide where unfinished runs stop.',
          'Score trend across course runs: whether changes to the course helped.',
        ],
      },
      {
        type: 'p',
        text: 'CourseLens computes all five from the events your course already produces. Funnels show drop-off, question reports show first-try success, and the AI summary points at what changed.',
      },
    ],
  },
  {
    id: 'share-reports-with-stakeholders',
    title: 'Share a report with people who will never log in',
    summary:
      'Managers and clients want numbers, not another account. Public report links give them a read-only view you control.',
    date: '2026-10-27',
    readingMinutes: 3,
    blocks: [
      {
        type: 'p',
        text: 'Build a custom report with the variables and questions a stakeholder cares about, then turn on its public link. The link carries an unguessable token; whoever has it sees the report, read-only, without an e-mail address in sight.',
      },
      {
        type: 'p',
        text: 'Turn the link off and it stops working at once. Turn it on again and a new token is issued, so an old forwarded e-mail does not reopen the report.',
      },
    ],
  },
];

export function findArticle(id: string | undefined): Article | undefined {
  return articles.find((article) => article.id === id);
}
