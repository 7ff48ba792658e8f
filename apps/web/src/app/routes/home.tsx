import {
  ArrowRight,
  Bot,
  Cable,
  ChartNoAxesCombined,
  CircleCheck,
  FileChartColumn,
  Sparkles,
  Workflow,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { buttonClassName } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';

type ValuePoint = {
  icon: LucideIcon;
  title: string;
  text: string;
};

const valuePoints: ValuePoint[] = [
  {
    icon: FileChartColumn,
    title: 'Reports',
    text: 'Pick the variables and questions that matter, compare cohorts, and share a read-only link with stakeholders who never need an account.',
  },
  {
    icon: ChartNoAxesCombined,
    title: 'Analytics',
    text: 'Funnels, question heatmaps, learning paths and drop-off points across every course run, computed in the database in seconds.',
  },
  {
    icon: Sparkles,
    title: 'AI summaries',
    text: 'A plain-language reading of any variable or question, built from the real statistics: spread, trend, top and bottom learners.',
  },
  {
    icon: Workflow,
    title: 'Pipelines',
    text: 'Route course data through visual pipelines: map variables between courses and trigger actions, or describe one in words and get a draft.',
  },
  {
    icon: Bot,
    title: 'Custom AI agents',
    text: 'Chat agents grounded in your own instructions and knowledge that collect answers into variables while they talk with learners.',
  },
  {
    icon: Cable,
    title: 'Connect any course',
    text: 'One script tag or the ingestion API with write-only keys. Events are idempotent, so a flaky connection never counts a learner twice.',
  },
];

/** Under the calls to action: what a visitor gets, never how the server runs. */
const heroHighlights = [
  'Connect a course with one script tag or the ingestion API',
  'Share read-only report links with people who have no account',
];

export function HomeRoute() {
  return (
    <>
      <title>CourseLens · Learning analytics for every course run</title>
      <Hero />
      <ValuePoints />
      <ClosingCallToAction />
    </>
  );
}

function Hero() {
  return (
    <section aria-labelledby="home-hero-title" className="relative isolate overflow-hidden">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 -top-40 -z-10 flex justify-center blur-3xl"
      >
        <div className="aspect-[1.6] w-[56rem] max-w-none bg-gradient-to-tr from-brand-300 via-violet-300 to-sky-200 opacity-40 [clip-path:polygon(25%_10%,75%_0%,100%_45%,80%_95%,30%_100%,0%_55%)] dark:from-brand-700 dark:via-violet-700 dark:to-sky-800 dark:opacity-30" />
      </div>
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 pt-14 pb-16 sm:px-6 sm:pt-20 lg:grid-cols-[1.05fr_1fr] lg:gap-16 lg:px-8 lg:pt-24 lg:pb-24">
        <div className="flex min-w-0 flex-col">
          <Badge variant="brand" className="self-start">
            Learning analytics for course teams
          </Badge>
          <h1
            id="home-hero-title"
            className="mt-5 text-4xl font-bold tracking-tight text-balance text-fg sm:text-5xl lg:text-6xl"
          >
            Turn every course run into{' '}
            <span className="bg-gradient-to-r from-brand-600 to-violet-600 bg-clip-text text-transparent dark:from-brand-300 dark:to-violet-300">
              insight
            </span>
          </h1>
          <p className="mt-5 max-w-xl text-lg text-pretty text-fg-muted">
            CourseLens collects what learners do inside your e-learning courses (variables, quiz answers,
            completions) and turns it into reports, analytics and AI summaries your whole team can act on.
          </p>
          <div className="mt-8 flex flex-col gap-3 min-[420px]:flex-row">
            <Link to={paths.auth.signup.href()} className={buttonClassName({ size: 'lg' })}>
              Start free
              <ArrowRight aria-hidden="true" />
            </Link>
            <Link
              to={paths.auth.login.href()}
              className={buttonClassName({ variant: 'outline', size: 'lg' })}
            >
              Sign in
            </Link>
          </div>
          <ul className="mt-8 flex flex-col gap-2 text-sm text-fg-muted" aria-label="Highlights">
            {heroHighlights.map((highlight) => (
              <li key={highlight} className="flex items-start gap-2">
                <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent" />
                {highlight}
              </li>
            ))}
          </ul>
        </div>
        <ProductPreview />
      </div>
    </section>
  );
}

const previewBars = [38, 52, 47, 61, 58, 72, 69, 81, 77, 88, 84, 92];

/** An illustration of a course report, drawn with the app's own primitives. */
function ProductPreview() {
  return (
    <figure className="relative min-w-0">
      <Card className="overflow-hidden shadow-xl shadow-brand-900/10 dark:shadow-black/40">
        <div className="flex items-center justify-between gap-3 border-b border-line px-5 py-3.5">
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-fg">Safety Onboarding</p>
            <p className="text-xs text-fg-subtle">Last 90 days · 214 learners</p>
          </div>
          <Badge variant="success" dot>
            Live
          </Badge>
        </div>
        <div className="grid grid-cols-3 divide-x divide-line border-b border-line">
          <PreviewMetric label="Completion" value="87%" trend="+12%" />
          <PreviewMetric label="Avg. score" value="78" trend="+4" />
          <PreviewMetric label="Course runs" value="1,284" trend="+9%" />
        </div>
        <div className="px-5 pt-5 pb-4">
          <p className="text-xs font-medium text-fg-subtle">Completions per week</p>
          <div className="mt-3 flex h-28 items-end gap-1.5 sm:gap-2" aria-hidden="true">
            {previewBars.map((height, index) => (
              <div
                key={index}
                className="flex-1 rounded-t-md bg-gradient-to-t from-brand-500/70 to-brand-400 dark:from-brand-500/60 dark:to-brand-300"
                style={{ height: `${height}%` }}
              />
            ))}
          </div>
        </div>
        <div className="m-5 mt-1 flex gap-3 rounded-xl bg-brand-50 p-4 ring-1 ring-brand-600/10 ring-inset dark:bg-brand-400/10 dark:ring-brand-300/15">
          <Sparkles
            className="mt-0.5 size-4 shrink-0 text-brand-600 dark:text-brand-300"
            aria-hidden="true"
          />
          <p className="text-sm text-fg">
            <span className="font-semibold">AI summary:</span> completion rose 12% after slide 8 was
            shortened. Question 4 is the hardest: only 41% answer it correctly on the first try.
          </p>
        </div>
      </Card>
      <figcaption className="mt-3 text-center text-xs text-fg-subtle">
        Illustration of a course report in CourseLens
      </figcaption>
    </figure>
  );
}

type PreviewMetricProps = {
  label: string;
  value: string;
  trend: string;
};

function PreviewMetric({ label, value, trend }: PreviewMetricProps) {
  return (
    <div className="min-w-0 px-3 py-4 sm:px-5">
      <p className="truncate text-xs text-fg-subtle">{label}</p>
      <p className="mt-1 text-xl font-semibold tracking-tight text-fg sm:text-2xl">{value}</p>
      <p className="mt-0.5 text-xs font-medium text-emerald-700 dark:text-emerald-400">{trend}</p>
    </div>
  );
}

function ValuePoints() {
  return (
    <section aria-labelledby="home-value-title" className="border-t border-line bg-surface/50">
      <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8 lg:py-24">
        <div className="max-w-2xl">
          <p className="text-sm font-semibold tracking-wide text-accent uppercase">
            One place for course data
          </p>
          <h2
            id="home-value-title"
            className="mt-2 text-3xl font-bold tracking-tight text-balance text-fg sm:text-4xl"
          >
            Everything your courses can tell you
          </h2>
          <p className="mt-4 text-lg text-pretty text-fg-muted">
            From the first event a course sends to the summary a manager reads on Monday morning.
          </p>
        </div>
        <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {valuePoints.map(({ icon: Icon, title, text }) => (
            <li key={title}>
              <Card className="h-full p-6 transition-shadow hover:shadow-md">
                <div className="flex size-10 items-center justify-center rounded-xl bg-brand-600 text-white shadow-sm shadow-brand-900/20 dark:bg-brand-500">
                  <Icon className="size-5" aria-hidden="true" />
                </div>
                <h3 className="mt-5 text-base font-semibold text-fg">{title}</h3>
                <p className="mt-2 text-sm leading-6 text-fg-muted">{text}</p>
              </Card>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function ClosingCallToAction() {
  return (
    <section aria-labelledby="home-cta-title" className="mx-auto w-full max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
      <div className="relative isolate overflow-hidden rounded-3xl bg-brand-700 px-6 py-14 text-center shadow-xl sm:px-12 dark:bg-brand-800">
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[radial-gradient(60rem_20rem_at_50%_-20%,color-mix(in_oklab,var(--color-violet-400)_55%,transparent),transparent)]"
        />
        <h2
          id="home-cta-title"
          className="text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl"
        >
          See what your learners are telling you
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-pretty text-brand-100">
          Connect a course in minutes and watch the first course runs arrive.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 min-[420px]:flex-row">
          <Link
            to={paths.auth.signup.href()}
            className={buttonClassName({
              size: 'lg',
              className:
                'bg-white text-brand-700 shadow-sm hover:bg-brand-50 focus-visible:outline-white dark:bg-white dark:text-brand-800 dark:hover:bg-brand-50',
            })}
          >
            Create your account
            <ArrowRight aria-hidden="true" />
          </Link>
          <a
            href={paths.docs.href()}
            className={buttonClassName({
              variant: 'ghost',
              size: 'lg',
              className: 'text-white hover:bg-white/10 hover:text-white focus-visible:outline-white',
            })}
          >
            Read the API reference
          </a>
        </div>
      </div>
    </section>
  );
}
