import type { CourseTriggerEvent } from '@courselens/contracts';
import type { PlanAction } from './draft';

// The new actions a draft proposes when the sentence names none of the
// organization's actions: the right type with settings a person would
// write, e-mail subjects and messages filled from the event with the
// template fields every action understands.

export type RunContext = {
  /** What starts the run: learner events carry a learner and a course; a schedule or a button neither. */
  kind: 'event' | 'schedule' | 'manual';
  events: CourseTriggerEvent[];
};

const LEARNER_LINES: Partial<Record<CourseTriggerEvent, [subject: string, line: string]>> = {
  'course.completed': ['Well done on {{course.title}}', 'You have completed {{course.title}}. Well done!'],
  'course.passed': [
    'Congratulations on passing {{course.title}}',
    'You passed {{course.title}}. Congratulations!',
  ],
  'course.failed': [
    'About your result in {{course.title}}',
    'You did not pass {{course.title}} this time. You can take it again whenever you are ready.',
  ],
  'course.started': ['Welcome to {{course.title}}', 'Welcome to {{course.title}}. Enjoy the course!'],
  'course.exited': [
    'Pick up {{course.title}} where you left off',
    'You left {{course.title}} before the end. Your progress is saved: pick it up where you left off.',
  ],
  'course.progressed': [
    'Keep going with {{course.title}}',
    'You are making good progress in {{course.title}}. Keep going!',
  ],
  'question.answered': ['About {{course.title}}', 'Thank you for your answer in {{course.title}}.'],
  'slide.viewed': ['About {{course.title}}', 'Thank you for following {{course.title}}.'],
  'variable.set': ['About {{course.title}}', 'Your {{variable.name}} in {{course.title}} is now {{value}}.'],
};

const TOPIC_LINES: Record<string, [subject: string, line: string]> = {
  reminder: [
    'Reminder: {{course.title}}',
    'A reminder to finish {{course.title}}: it only takes a few minutes to pick it up again.',
  ],
  certificate: [
    'Your certificate for {{course.title}}',
    'Congratulations on {{course.title}}! Your certificate is attached to your learner record.',
  ],
  encouragement: [
    'Keep going with {{course.title}}',
    'You are making good progress in {{course.title}}. Keep going, you are nearly there!',
  ],
  congratulation: ['Congratulations on {{course.title}}', 'Congratulations on {{course.title}}!'],
  welcome: ['Welcome to {{course.title}}', 'Welcome to {{course.title}}. Enjoy the course!'],
};

const TEAM_VERBS: Partial<Record<CourseTriggerEvent, string>> = {
  'course.completed': 'completed',
  'course.passed': 'passed',
  'course.failed': 'failed',
  'course.started': 'started',
  'course.exited': 'left without completing',
  'course.progressed': 'made progress in',
  'question.answered': 'answered a question in',
  'slide.viewed': 'viewed a slide of',
};

/** What happened, for the team: "{{learner.name}} ({{learner.email}}) failed {{course.title}}". */
function teamLine(context: RunContext): string {
  if (context.kind !== 'event') return 'The pipeline ran on schedule.';
  const [event] = context.events;
  if (context.events.length === 1 && event === 'variable.set') {
    return '{{learner.name}} ({{learner.email}}): {{variable.name}} is {{value}} in {{course.title}}';
  }
  const verb = context.events.length === 1 && event ? TEAM_VERBS[event] : undefined;
  return verb
    ? `{{learner.name}} ({{learner.email}}) ${verb} {{course.title}}`
    : '{{learner.name}} ({{learner.email}}): {{event.type}} in {{course.title}}';
}

function topicKey(topic: string | null): string | null {
  if (!topic) return null;
  const words = topic.toLowerCase();
  return Object.keys(TOPIC_LINES).find((key) => words.includes(key)) ?? null;
}

export type EmailTarget = { kind: 'learner' } | { kind: 'team' } | { kind: 'addresses'; addresses: string[] };

export function proposeEmail(target: EmailTarget, context: RunContext, topic: string | null): PlanAction {
  let subject: string;
  let body: string;
  if (target.kind === 'learner') {
    const key = topicKey(topic);
    const [event] = context.events;
    const [first, line] = (key ? TOPIC_LINES[key] : undefined) ??
      (event ? LEARNER_LINES[event] : undefined) ?? [
        'About {{course.title}}',
        'A message about {{course.title}}.',
      ];
    subject = first;
    body = `Hello {{learner.name}},\n\n${line}\n\n{{organization.name}}`;
  } else if (context.kind === 'event') {
    subject = teamLine(context);
    body = `${teamLine(context)}.\n\nSent by a CourseLens pipeline.`;
  } else {
    subject = context.kind === 'schedule' ? 'Scheduled update from CourseLens' : 'Message from CourseLens';
    body = 'Hello,\n\nThis message was sent by a CourseLens pipeline of {{organization.name}}.';
  }
  const to =
    target.kind === 'addresses'
      ? { kind: 'addresses', addresses: target.addresses }
      : target.kind === 'team'
        ? { kind: 'team', roles: ['owner', 'team_member'] }
        : { kind: 'learner' };
  const who =
    target.kind === 'learner'
      ? 'the learner'
      : target.kind === 'team'
        ? 'the team'
        : target.addresses.join(', ');
  const suffix = topic ? `: ${topic}` : '';
  return {
    kind: 'new',
    proposal: {
      name: `Email ${who}${suffix}`.slice(0, 200),
      type: 'email',
      config: { type: 'email', to, subject, body },
    },
    description: `A new e-mail to ${who}: “${subject}”`,
    missing: [],
  };
}

export function proposeNotifyTeam(context: RunContext): PlanAction {
  const message = teamLine(context);
  return {
    kind: 'new',
    proposal: {
      name: 'Notify the team',
      type: 'notify_team',
      config: { type: 'notify_team', message, roles: ['owner', 'team_member'] },
    },
    description: `A new notification in your activity feed: “${message}”`,
    missing: [],
  };
}

export function proposeSetVariable(
  variableName: string,
  value: string | number | boolean | null,
): PlanAction {
  const shown = typeof value === 'string' ? `“${value}”` : String(value);
  return {
    kind: 'new',
    proposal: {
      name: `Set ${variableName} to ${value === null ? 'empty' : String(value)}`.slice(0, 200),
      type: 'set_variable',
      config: { type: 'set_variable', variableName, value: { kind: 'literal', value } },
    },
    description: `A new action that sets the learner’s ${variableName} to ${shown}`,
    missing: [],
  };
}

export function proposeBroadcast(
  mode: 'set' | 'clear',
  course: { id: string; title: string } | null,
  message: string | null,
): PlanAction {
  const where = course ? `the broadcast of ${course.title}` : 'the broadcast of the learner’s course';
  const name = `${mode === 'set' ? 'Set' : 'Clear'} ${where}`;
  return {
    kind: 'new',
    proposal: {
      name: name.slice(0, 200),
      type: 'broadcast',
      config: {
        type: 'broadcast',
        courseId: course?.id ?? null,
        mode,
        message: mode === 'set' ? (message ?? '') : null,
      },
    },
    description:
      mode === 'set'
        ? `A new action that sets ${where}${message ? ` to “${message}”` : ''}`
        : `A new action that clears ${where}`,
    missing: mode === 'set' && !message ? ['message'] : [],
  };
}

/** A new webhook; without an address, `about` (the words the sentence gave, "our HR system") names it. */
export function proposeWebhook(url: string | null, about: string | null = null): PlanAction {
  let host: string | null = null;
  if (url) {
    try {
      host = new URL(url).host;
    } catch {
      host = null;
    }
  }
  return {
    kind: 'new',
    proposal: {
      name: host ? `Webhook to ${host}` : about ? `Webhook to ${about}`.slice(0, 200) : 'Webhook',
      type: 'webhook',
      config: { type: 'webhook', url: url ?? '', method: 'POST' },
    },
    description: url
      ? `A new signed webhook that POSTs the event to ${url}`
      : 'A new signed webhook: give the address it posts to',
    missing: url ? [] : ['url'],
  };
}
