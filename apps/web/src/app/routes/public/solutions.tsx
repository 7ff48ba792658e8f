import { Building, GraduationCap, HeartPulse, type LucideIcon } from 'lucide-react';

import { Card } from '@/components/ui/card';

import { MarketingHero, ReportIllustration, SignupBand } from './marketing';

type Solution = { icon: LucideIcon; title: string; problem: string; answer: string[] };

const solutions: Solution[] = [
  {
    icon: Building,
    title: 'Corporate learning teams',
    problem: 'Your LMS says who completed a course, not what they understood.',
    answer: [
      'Quiz answers and decisions from inside every module',
      'Funnels that show the slide where people stop',
      'Reports managers open from a link',
    ],
  },
  {
    icon: HeartPulse,
    title: 'Compliance and safety training',
    problem: 'An audit needs proof of understanding, per person, per course run.',
    answer: [
      'Every answer kept with its course run and date',
      'Question reports that flag confusing items',
      'Pipelines that alert a coach when a score drops',
    ],
  },
  {
    icon: GraduationCap,
    title: 'Course creators and agencies',
    problem: 'Clients ask what works, and you have a SCORM completion flag.',
    answer: [
      'One organization per client, one login for you',
      'Shared read-only reports for each client',
      'AI summaries you can paste into a review',
    ],
  },
];

export function SolutionsRoute() {
  return (
    <>
      <title>Solutions · CourseLens</title>
      <MarketingHero eyebrow="Solutions" title="Built for the people who run learning programmes">
        <p>
          Whether you train a workforce, certify safety or build courses for clients, CourseLens shows what
          learners actually do.
        </p>
      </MarketingHero>
      <section aria-labelledby="solutions-list" className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <h2 id="solutions-list" className="sr-only">
          Who it is for
        </h2>
        <ul className="grid gap-5 lg:grid-cols-3">
          {solutions.map(({ icon: Icon, title, problem, answer }) => (
            <li key={title}>
              <Card className="h-full p-6">
                <Icon aria-hidden="true" className="size-6 text-accent" />
                <h3 className="mt-4 text-lg font-semibold text-fg">{title}</h3>
                <p className="mt-2 text-sm text-fg-muted">{problem}</p>
                <ul className="mt-4 flex flex-col gap-2 text-sm text-fg">
                  {answer.map((line) => (
                    <li key={line} className="flex gap-2">
                      <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-brand-500" />
                      {line}
                    </li>
                  ))}
                </ul>
              </Card>
            </li>
          ))}
        </ul>
        <div className="mx-auto mt-16 max-w-2xl">
          <ReportIllustration caption="Illustration: who scores highest on a final assessment" />
        </div>
      </section>
      <SignupBand
        title="See your own courses in CourseLens"
        text="Connect a course in minutes; the first learners show up as soon as they start."
      />
    </>
  );
}
