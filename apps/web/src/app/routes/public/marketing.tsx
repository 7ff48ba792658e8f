import { ArrowRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';

export type MarketingHeroProps = { eyebrow: string; title: string; children: ReactNode };

export function MarketingHero({ eyebrow, title, children }: MarketingHeroProps) {
  return (
    <section className="relative isolate overflow-hidden border-b border-line">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 -top-40 -z-10 flex justify-center blur-3xl"
      >
        <div className="aspect-[1.6] w-[48rem] max-w-none bg-gradient-to-tr from-brand-300 via-violet-300 to-sky-200 opacity-30 dark:from-brand-700 dark:via-violet-700 dark:to-sky-800 dark:opacity-25" />
      </div>
      <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6 sm:py-20 lg:px-8">
        <Badge variant="brand">{eyebrow}</Badge>
        <h1 className="mt-5 text-4xl font-bold tracking-tight text-balance text-fg sm:text-5xl">{title}</h1>
        <div className="mx-auto mt-5 max-w-2xl text-lg text-pretty text-fg-muted">{children}</div>
      </div>
    </section>
  );
}

export function SignupBand({ title, text }: { title: string; text: string }) {
  return (
    <section className="mx-auto w-full max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
      <div className="flex flex-col items-center gap-6 rounded-3xl bg-brand-700 px-6 py-12 text-center shadow-xl sm:px-12 dark:bg-brand-800">
        <h2 className="text-3xl font-bold tracking-tight text-balance text-white">{title}</h2>
        <p className="max-w-xl text-lg text-pretty text-brand-100">{text}</p>
        <Link
          to={paths.auth.signup.href()}
          className={buttonClassName({
            size: 'lg',
            className:
              'bg-white text-brand-700 hover:bg-brand-50 focus-visible:outline-white dark:bg-white dark:text-brand-800',
          })}
        >
          Start free
          <ArrowRight aria-hidden="true" />
        </Link>
      </div>
    </section>
  );
}

/** A drawing of the sidebar layout with a variable report, for marketing pages. */
export function ReportIllustration({ caption }: { caption: string }) {
  const rows = [
    ['Maya Chen', '96', 'w-[96%]'],
    ['Jonas Weber', '91', 'w-[91%]'],
    ['Aisha Bello', '88', 'w-[88%]'],
    ['Tom Ruiz', '74', 'w-[74%]'],
  ] as const;
  return (
    <figure className="min-w-0">
      <div className="overflow-hidden rounded-2xl border border-line bg-surface shadow-xl shadow-brand-900/10 dark:shadow-black/40">
        <div className="flex">
          <div
            aria-hidden="true"
            className="hidden w-14 shrink-0 flex-col items-center gap-3 border-r border-line py-4 sm:flex"
          >
            <span className="size-6 rounded-md bg-gradient-to-br from-brand-500 to-violet-500" />
            {[0, 1, 2, 3, 4, 5].map((index) => (
              <span
                key={index}
                className={`size-5 rounded-md ${index === 2 ? 'bg-brand-200 dark:bg-brand-400/40' : 'bg-surface-muted'}`}
              />
            ))}
          </div>
          <div className="min-w-0 flex-1 p-5">
            <p className="text-xs text-fg-subtle">Variables › final_score › Leaders</p>
            <p className="mt-1 font-semibold text-fg">Final score leaders</p>
            <ul className="mt-4 flex flex-col gap-3" aria-hidden="true">
              {rows.map(([name, value, width]) => (
                <li key={name} className="flex items-center gap-3 text-sm">
                  <span className="w-24 shrink-0 truncate text-fg-muted">{name}</span>
                  <span className="h-2.5 flex-1 rounded-full bg-surface-muted">
                    <span className={`block h-full rounded-full bg-brand-500 dark:bg-brand-400 ${width}`} />
                  </span>
                  <span className="w-8 text-right font-medium text-fg">{value}</span>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
      <figcaption className="mt-3 text-center text-xs text-fg-subtle">{caption}</figcaption>
    </figure>
  );
}

/** A drawing of the pipeline editor. */
export function PipelineIllustration({ caption }: { caption: string }) {
  return (
    <figure className="min-w-0">
      <div className="overflow-hidden rounded-2xl border border-line bg-surface p-4 shadow-xl shadow-brand-900/10 dark:shadow-black/40">
        <svg
          viewBox="0 0 360 170"
          className="h-auto w-full"
          role="img"
          aria-label="Pipeline: course event, condition, two actions"
        >
          <defs>
            <pattern id="grid-dots" width="14" height="14" patternUnits="userSpaceOnUse">
              <circle cx="1" cy="1" r="1" className="fill-slate-300 dark:fill-slate-600" />
            </pattern>
          </defs>
          <rect width="360" height="170" fill="url(#grid-dots)" />
          <g className="stroke-brand-400" strokeWidth="2" fill="none">
            <path d="M110 85 C130 85 130 85 145 85" />
            <path d="M235 85 C255 85 250 45 265 45" />
            <path d="M235 85 C255 85 250 125 265 125" />
          </g>
          <g className="fill-white stroke-slate-300 dark:fill-slate-800 dark:stroke-slate-600">
            <rect x="15" y="65" width="95" height="40" rx="8" />
            <rect x="145" y="65" width="90" height="40" rx="8" />
            <rect x="265" y="25" width="85" height="40" rx="8" />
            <rect x="265" y="105" width="85" height="40" rx="8" />
          </g>
          <g className="fill-slate-700 dark:fill-slate-200" fontSize="11" fontFamily="system-ui, sans-serif">
            <text x="25" y="89">
              Course event
            </text>
            <text x="155" y="89">
              score &lt; 60?
            </text>
            <text x="275" y="49">
              Notify coach
            </text>
            <text x="275" y="129">
              Set variable
            </text>
          </g>
        </svg>
      </div>
      <figcaption className="mt-3 text-center text-xs text-fg-subtle">{caption}</figcaption>
    </figure>
  );
}
