import {
  Activity,
  Bot,
  Building2,
  Cable,
  ChartNoAxesCombined,
  FileChartColumn,
  Share2,
  Sparkles,
  Workflow,
  type LucideIcon,
} from 'lucide-react';

import { Card } from '@/components/ui/card';

import { MarketingHero, PipelineIllustration, ReportIllustration, SignupBand } from './marketing';

type Feature = { icon: LucideIcon; title: string; text: string };

const features: Feature[] = [
  {
    icon: Cable,
    title: 'Connect any course',
    text: 'A script tag for Storyline, Rise, Captivate or your own HTML course, or the ingestion API with write-only keys safe to embed.',
  },
  {
    icon: FileChartColumn,
    title: 'Variable and question reports',
    text: 'Every variable as a report, a chart and a leaderboard; every question with its success rate and the answers learners gave.',
  },
  {
    icon: Sparkles,
    title: 'AI summaries',
    text: 'A plain-language reading of any variable, computed from the real statistics: spread, trend, top and bottom learners.',
  },
  {
    icon: ChartNoAxesCombined,
    title: 'Analytics',
    text: 'Funnels, heatmaps, learning paths and insights across every course run, aggregated in the database in seconds.',
  },
  {
    icon: Workflow,
    title: 'Pipelines and actions',
    text: 'Map variables between courses and trigger actions on a visual canvas, or describe a pipeline in words and get a draft.',
  },
  {
    icon: Bot,
    title: 'Custom AI agents',
    text: 'Chat agents grounded in your instructions and knowledge that collect answers into variables while they talk with learners.',
  },
  {
    icon: Activity,
    title: 'Activity as it happens',
    text: 'A live feed of course events, new learners and changes by your team, so nothing surprises you on Monday.',
  },
  {
    icon: Building2,
    title: 'Several organizations, one login',
    text: 'Run programmes for several clients or departments, each with its own data, team and API keys, and switch in one click.',
  },
  {
    icon: Share2,
    title: 'Share with anyone',
    text: 'Custom reports with an unguessable public link: stakeholders read them without an account, and you revoke the link any time.',
  },
];

export function FeaturesRoute() {
  return (
    <>
      <title>Features · CourseLens</title>
      <MarketingHero eyebrow="Features" title="From the first course event to a decision">
        <p>
          CourseLens collects what learners do inside your courses and gives every person on your team the
          view they need: reports, analytics, AI summaries, pipelines and agents.
        </p>
      </MarketingHero>
      <section aria-labelledby="features-list" className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <h2 id="features-list" className="sr-only">
          What CourseLens does
        </h2>
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {features.map(({ icon: Icon, title, text }) => (
            <li key={title}>
              <Card className="h-full p-6">
                <div className="flex size-10 items-center justify-center rounded-xl bg-brand-600 text-white dark:bg-brand-500">
                  <Icon aria-hidden="true" className="size-5" />
                </div>
                <h3 className="mt-5 font-semibold text-fg">{title}</h3>
                <p className="mt-2 text-sm leading-6 text-fg-muted">{text}</p>
              </Card>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="features-screens" className="border-y border-line bg-surface/50">
        <div className="mx-auto grid max-w-7xl gap-12 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:px-8">
          <h2 id="features-screens" className="sr-only">
            The screens
          </h2>
          <ReportIllustration caption="Illustration: the leaders view of a variable report" />
          <PipelineIllustration caption="Illustration: a pipeline that alerts a coach when a score drops" />
        </div>
      </section>
      <SignupBand
        title="Try it on your next course run"
        text="Free for your first course and 100 learners. No card needed."
      />
    </>
  );
}
